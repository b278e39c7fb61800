import { defineConfig } from '@umijs/max';
import path from 'node:path';
import routes from './config/routes';

const shim = (file: string) => require.resolve(`./src/shims/${file}`);
const folder = (...parts: string[]) => new RegExp(`[\\\\/]${parts.join('[\\\\/]')}$`);

// ProField's value-type components that load on first use (see src/shims/lazy-pro-field.tsx): none
// of the lists or search forms shows them, and together they weigh more than the rest of ProTable.
const lazyProFields = [
  'Cascader', 'Code', 'ColorPicker', 'DatePicker', 'Digit', 'DigitRange', 'FromNow', 'Image', 'Money',
  'Percent', 'Progress', 'Radio', 'RangePicker', 'Rate', 'Second', 'Segmented', 'Slider', 'TimePicker',
  'TreeSelect',
];

/** `request`, when a module in a folder matching `from` imports it, becomes `to(request)`. */
const moduleSwaps: { request: RegExp; from: RegExp; to: (request: string) => string }[] = [
  {
    request: new RegExp(`^\\./components/(${lazyProFields.join('|')})$`),
    from: folder('@ant-design', 'pro-field', 'es'),
    to: (request) => `${shim('lazy-pro-field.tsx')}?${request.slice('./components/'.length)}`,
  },
  {
    request: /^antd$/,
    from: new RegExp(
      [
        folder('pro-layout', 'es', 'components', 'PageContainer'),
        folder('pro-card', 'es', 'components', '(Card|TabPane)'),
        folder('pro-table', 'es', 'components', 'ListToolBar'),
        folder('pro-table', 'es', 'components', 'ColumnSetting'),
        folder('pro-utils', 'es', 'genCopyable'),
        folder('pro-form', 'es', 'layouts', '(StepsForm|DrawerForm|ModalForm)'),
        folder('pro-layout', 'es', 'components', 'SiderMenu'),
      ]
        .map((re) => re.source)
        .join('|'),
    ),
    to: () => shim('lazy-antd.tsx'),
  },
  {
    // ProProvider holds the texts of 33 locales; this app shows only Chinese (antd's zh_CN locale
    // picks ProProvider's zh-CN), so any other locale gets the English texts, its default.
    request: /^\.\/locale\/(?!zh_CN$|en_US$)[a-z]{2}_[A-Z]{2}$/,
    from: folder('@ant-design', 'pro-provider', 'es'),
    to: () => require.resolve('@ant-design/pro-provider/es/locale/en_US'),
  },
  {
    // ProLayout's own texts, picked by the browser's language with zh-CN as the fallback: the
    // Italian, Korean and Traditional Chinese sets give way to zh-CN (the app is Chinese only).
    request: /^\.\/(it-IT|ko-KR|zh-TW)$/,
    from: folder('@ant-design', 'pro-layout', 'es', 'locales'),
    to: () => require.resolve('@ant-design/pro-layout/es/locales/zh-CN'),
  },
  {
    request: /^\.\.\/\.\.\/\.\.\/tree$/,
    from: folder('antd', 'es', 'table', 'hooks', 'useFilter'),
    to: () => shim('lazy-antd-tree.ts'),
  },
  {
    request: /^\.\/(noFound|serverError|unauthorized)$/,
    from: folder('antd', 'es', 'result'),
    to: (request) => `${shim('lazy-result-image.tsx')}?${request.slice(2)}`,
  },
  {
    request: /^(\.\.\/)+layouts\/(DrawerForm|LightFilter|ModalForm|StepsForm)$/,
    from: /[\\/]pro-form[\\/]es[\\/]components[\\/]SchemaForm([\\/]layoutType)?$/,
    to: () => shim('lazy-pro-form-layouts.tsx'),
  },
  {
    request: /^\.\/hooks\/useSelection$/,
    from: folder('antd', 'es', 'table'),
    to: () => shim('lazy-table-selection.ts'),
  },
  {
    request: /^\.\/FilterDropdown$/,
    from: folder('antd', 'es', 'table', 'hooks', 'useFilter'),
    to: () => shim('lazy-filter-dropdown.tsx'),
  },
  {
    request: /^\.\/RcTable\/VirtualTable$/,
    from: folder('antd', 'es', 'table'),
    to: () => `${shim('lazy-table-parts.tsx')}?VirtualTable`,
  },
  {
    request: /^\.\.\/ColumnSetting$/,
    from: folder('pro-table', 'es', 'components', 'ToolBar'),
    to: () => `${shim('lazy-table-parts.tsx')}?ColumnSetting`,
  },
  {
    // ProProvider's setAlpha / lighten: the same arithmetic from antd's own colour library.
    request: /^@ctrl\/tinycolor$/,
    from: folder('@ant-design', 'pro-provider', 'es', 'useStyle'),
    to: () => shim('tinycolor.ts'),
  },
  {
    // `@ant-design/icons/ArrowLeftOutlined` (PageHeader imports two so) is the CommonJS build: its
    // own copy of the icon base, its helpers and rc-util's CommonJS DOM helpers beside the ES ones.
    request: /^@ant-design\/icons\/([A-Z][A-Za-z]*(Outlined|Filled|TwoTone))$/,
    from: /./,
    to: (request) => `@ant-design/icons/es/icons/${request.slice('@ant-design/icons/'.length)}`,
  },
  {
    // antd/locale/zh_CN is CommonJS and pulls CommonJS copies of the picker and pagination locales
    // beside the ES ones the components import; the ES build of the same locale shares them. (An
    // alias does not do it: Umi's own `antd` alias rewrites the request first.)
    request: /^antd\/locale\/zh_CN$/,
    from: /./,
    to: () => require.resolve('antd/es/locale/zh_CN'),
  },
  {
    // ProLayout brings path-to-regexp 8 beside the copy (of version 6) that @umijs/route-utils,
    // which it also uses, carries in its own source. ProLayout only calls `match(key)(pathname)` for
    // the page title and breadcrumb, as a truthy test inside try/catch (params unused); for route
    // paths made of fixed segments and `:param`s (config/routes.ts) both versions answer alike.
    request: /^path-to-regexp$/,
    from: /[\\/]@ant-design[\\/]pro-layout[\\/]es([\\/]utils)?$/,
    to: () => require.resolve('@umijs/route-utils/es/path-to-regexp'),
  },
  {
    request: /^\.\.\/\.\.\/color-picker\/components\/ColorPresets$/,
    from: folder('antd', 'es', 'button', 'style'),
    to: () => shim('antd-is-bright.ts'),
  },
];

// `npm run dev:mock` sets MOCK=1: mock/ answers every call and nothing is proxied. Otherwise the
// Fastify server on 7001 answers, as it does in production on the same origin.
const useMock = process.env.MOCK === '1';
const server = 'http://127.0.0.1:7001';

export default defineConfig({
  antd: {},
  access: {},
  model: {},
  initialState: { loading: '@/loading' },
  request: {},
  dva: {},
  layout: { title: 'coder station', locale: false },
  routes,
  history: { type: 'browser' },
  publicPath: '/',
  title: 'coder station 后台管理系统',
  // The title is fixed in index.html; no page sets its own, so react-helmet-async (~4 KB gzipped
  // on every page) has nothing to do.
  helmet: false,
  favicons: ['/favicon.svg'],
  // mock/server.ts hands every call to the real server, built in this process (no exclusions needed).
  mock: useMock ? {} : false,
  proxy: useMock
    ? {}
    : {
        '/api': { target: server, changeOrigin: true },
        '/res': { target: server, changeOrigin: true },
        '/static': { target: server, changeOrigin: true },
      },
  // An administrators' tool for current evergreen browsers, which have every standard feature the
  // app and its libraries use: no core-js (Umi's default pulls in all of it, ~100 KB gzipped).
  targets: { chrome: 100, edge: 100, firefox: 100, safari: 15 },
  // No polyfills at all: core-js is not needed (above), and the global regenerator runtime Umi adds
  // with it is only read by dva-loading, which is given the @babel/runtime one instead (below).
  polyfill: false,
  // esbuild's minifier hoists its helpers to top-level names in each async chunk; with the editor
  // and cropper chunks two of them clash (Umi's helper checker stops the build). Wrapping every
  // chunk in its own function scope keeps the names apart.
  esbuildMinifyIIFE: true,
  chainWebpack(memo, { webpack }) {
    // docs/requirements.md fixes the chunk load time-out at 120 s; stated here so no bundler default moves it.
    memo.output.chunkLoadTimeout(120_000);
    // Webpack's default split groups leave some modules the layout shares with a page copied into
    // both (antd Result's images, the lazy-antd shim, ProLayout's and ProTable's ErrorBoundary and
    // hooks): a module is split out per set of chunks that use it, and one in several sets ends up
    // in more than one split chunk. Every route but /login loads the layout, so what the layout
    // shares with pages goes into one chunk, loaded with the layout and named by those pages; what
    // /login shares is left as it was (so /login loads nothing new), as are the lazily loaded
    // editor, charts and shim chunks (only pages' own chunks count).
    const layoutChunk = 't__plugin-layout__Layout';
    let compilation: { chunkGraph: { getModuleChunks(module: unknown): { name?: string | null }[] } } | undefined;
    memo.plugin('layout-shared-compilation').use(
      class {
        apply(compiler: any) {
          compiler.hooks.thisCompilation.tap('layout-shared', (c: typeof compilation) => {
            compilation = c;
          });
        }
      },
    );
    memo.optimization.splitChunks({
      cacheGroups: {
        layoutShared: {
          chunks: 'async',
          enforce: true,
          priority: 20,
          name: 'layout-shared',
          test: (module: unknown) => {
            const names = compilation!.chunkGraph.getModuleChunks(module).map((c) => c.name ?? '');
            return (
              names.length > 1 &&
              names.includes(layoutChunk) &&
              names.every((n) => n === layoutChunk || (n.startsWith('p__') && n !== 'p__Login__index'))
            );
          },
        },
      },
    } as any);
    // Umi provides Node's Buffer to every module; only axios names it, on a path that browsers
    // (which have Blob) never take, and the polyfill costs ~7 KB gzipped on every page.
    memo.plugin('node-polyfill-provider').tap((args) => {
      const { Buffer: _unused, ...provided } = args[0] as Record<string, unknown>;
      return [provided];
    });
    // Umi hands `targets` to babel-loader as a top-level option, which the preset-env inside Umi's
    // preset does not read: without them in its own options it compiles our code down to ES5,
    // async functions and dva's generators included (regenerator state machines, helpers). Given
    // here, the sources keep their native syntax.
    for (const name of ['src', 'jsx-ts-tsx', 'extra-src']) {
      if (!memo.module.rules.has(name) || !memo.module.rule(name).uses.has('babel-loader')) continue;
      memo.module
        .rule(name)
        .use('babel-loader')
        .tap((options) => {
          const [[preset, presetOptions], ...others] = options.presets;
          const presetEnv = { ...presetOptions.presetEnv, targets: options.targets };
          return { ...options, presets: [[preset, { ...presetOptions, presetEnv }], ...others] };
        });
    }
    // One copy of each shared package where npm nested a second: the layout plugin's menu icons come
    // from its own @ant-design/icons 4 (with @ant-design/colors 6 and @ctrl/tinycolor), and a dozen
    // packages carry their own @babel/runtime. The app's icons 5 and the newest runtime (a superset of
    // the older helpers) serve them all. Umi's plugins and preset import their copies by absolute
    // path, so those paths are aliased too.
    const packageDir = (name: string, from?: string) =>
      path.dirname(require.resolve(`${name}/package.json`, from ? { paths: [require.resolve(`${from}/package.json`)] } : {}));
    const icons = packageDir('@ant-design/icons');
    memo.resolve.alias.set('@ant-design/icons', icons);
    memo.resolve.alias.set(packageDir('@ant-design/icons', '@umijs/plugins'), icons);
    const babelRuntime = packageDir('@babel/runtime', 'antd');
    memo.resolve.alias.set('@babel/runtime', babelRuntime);
    for (const copy of [packageDir('@babel/runtime', '@umijs/plugins'), packageDir('@babel/runtime', '@umijs/babel-preset-umi')]) {
      if (copy !== babelRuntime) memo.resolve.alias.set(copy, babelRuntime);
    }
    // Native ResizeObserver instead of its polyfill: see src/shims/resize-observer.ts.
    memo.resolve.alias.set('resize-observer-polyfill$', shim('resize-observer.ts'));
    // These packages declare no `sideEffects`, so webpack keeps every module they export even when
    // nothing uses it: Umi's request plugin re-exports useRequest (which we never call) and antd's
    // button theme imports one colour class from the colour picker. Marked pure, the unused parts
    // drop out of the entry chunk (-9 KB gzipped on every page).
    memo.module
      .rule('pure-packages')
      .test(/[\\/]node_modules[\\/](@ahooksjs[\\/]use-request|@rc-component[\\/]color-picker)[\\/]/)
      .sideEffects(false);
    // dva-loading calls a global regeneratorRuntime (see `polyfill` above).
    memo.plugin('regenerator-provider').use(webpack.ProvidePlugin, [
      { regeneratorRuntime: '@babel/runtime/regenerator' },
    ]);
    // Library modules swapped, only where the listed library folder imports them, for the stand-ins
    // in src/shims (each says what it saves and why nothing is lost).
    for (const [i, swap] of moduleSwaps.entries()) {
      memo.plugin(`module-swap-${i}`).use(webpack.NormalModuleReplacementPlugin, [
        swap.request,
        (resource: { context: string; request: string }) => {
          if (swap.from.test(resource.context)) resource.request = swap.to(resource.request);
        },
      ]);
    }
    return memo;
  },
  npmClient: 'npm',
});
