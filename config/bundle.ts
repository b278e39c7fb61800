/**
 * A local Umi plugin (.umirc.ts `plugins`) for what plain configuration cannot say, through Umi's
 * documented plugin API only:
 * - `<html lang="zh-CN">` (Umi writes a bare `<html>`);
 * - the `targets` of .umirc.ts for Babel's preset-env (Umi gives them to babel-loader, which
 *   Umi's preset tells preset-env to ignore: our own code would otherwise be compiled to ES5);
 * - the module redirects below, each guarded: a production build FAILS when one of them matched
 *   nothing, so a library upgrade that moves the redirected files stops the build instead of
 *   silently bringing the bytes back (or breaking the page).
 */
import type { IApi } from '@umijs/max';

interface Redirect {
  name: string;
  /** What it saves, and why nothing is lost. */
  why: string;
  /** The folder (webpack's `context`) of the importing module. */
  from: RegExp;
  /** Every request that must be redirected; each must be met at least once in a build. */
  requests: string[];
  to: (request: string) => string;
}

const shim = (file: string) => require.resolve(`../src/shims/${file}`);

// ProField imports every value-type component up front, so any ProTable or ProForm carries the
// date, time, colour, cascader, tree, slider, number and rate pickers and the image with its
// preview (~140 kB gzipped on /user/userList). None of the lists or search forms shows these; the
// stand-in fetches the real component the first time one renders (src/shims/lazy-pro-field.tsx).
const lazyProFields = [
  'Cascader',
  'Code',
  'ColorPicker',
  'DatePicker',
  'Digit',
  'DigitRange',
  'FromNow',
  'Image',
  'Money',
  'Percent',
  'Progress',
  'Radio',
  'RangePicker',
  'Rate',
  'Second',
  'Segmented',
  'Slider',
  'TimePicker',
  'TreeSelect',
];

export const redirects: Redirect[] = [
  {
    name: 'lazy-pro-field',
    why: "ProField's value types load on first use",
    from: /[\\/]@ant-design[\\/]pro-field[\\/]es$/,
    requests: lazyProFields.map((field) => `./components/${field}`),
    to: (request) => `${shim('lazy-pro-field.tsx')}?${request.slice('./components/'.length)}`,
  },
  {
    // Every browser of .umirc.ts `targets` has ResizeObserver; the polyfill that antd's
    // rc-resize-observer (and rc-align, react-slick) import costs ~5 KB gzipped on every page.
    name: 'native-resize-observer',
    why: "the browser's own ResizeObserver instead of its polyfill",
    from: /[\\/]node_modules[\\/]/,
    requests: ['resize-observer-polyfill'],
    to: () => shim('resize-observer.ts'),
  },
];

export default (api: IApi) => {
  api.modifyHTML(($) => {
    $('html').attr('lang', 'zh-CN');
    return $;
  });

  api.modifyBabelPresetOpts((opts) => ({
    ...opts,
    presetEnv: { ...opts.presetEnv, targets: api.config.targets },
  }));

  api.chainWebpack((memo, { webpack }) => {
    for (const redirect of redirects) {
      memo.plugin(`redirect-${redirect.name}`).use(
        class {
          // Umi's bundled webpack exports no types for its compiler and hooks.
          // biome-ignore lint/suspicious/noExplicitAny: see above.
          apply(compiler: any) {
            const met = new Set<string>();
            // biome-ignore lint/suspicious/noExplicitAny: see above.
            compiler.hooks.normalModuleFactory.tap(redirect.name, (factory: any) => {
              factory.hooks.beforeResolve.tap(redirect.name, (data: { request: string; context: string }) => {
                if (!redirect.requests.includes(data.request) || !redirect.from.test(data.context)) return;
                met.add(data.request);
                data.request = redirect.to(data.request);
              });
            });
            // Only a whole production build resolves every module; dev rebuilds and MFSU do not.
            if (api.env !== 'production') return;
            // biome-ignore lint/suspicious/noExplicitAny: see above.
            compiler.hooks.thisCompilation.tap(redirect.name, (compilation: any) => {
              compilation.hooks.finishModules.tap(redirect.name, () => {
                const missed = redirect.requests.filter((request) => !met.has(request));
                if (missed.length === 0) return;
                compilation.errors.push(
                  new webpack.WebpackError(
                    `config/bundle.ts: the redirect "${redirect.name}" (${redirect.why}) met no import of ` +
                      `${missed.join(', ')} from ${redirect.from}: the library has changed; update or drop the redirect.`,
                  ),
                );
              });
            });
          }
        },
      );
    }
    return memo;
  });
};
