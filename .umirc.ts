import { defineConfig } from '@umijs/max';
import { dirname, join } from 'node:path';
import routes from './config/routes';

const packageDir = (name: string, from?: string): string =>
  dirname(require.resolve(`${name}/package.json`, from ? { paths: [packageDir(from)] } : undefined));
// The layout plugin's menu icons come from its own @ant-design/icons 4 (with its own colour
// libraries); the app's icons 5 draw the same icons.
const layoutIcons = packageDir('@ant-design/icons', '@umijs/plugins');
const icons = packageDir('@ant-design/icons');

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
  // contract/ by its alias (package.json "imports"; Node resolves it for mock/ and the config too).
  alias: { '#contract': join(__dirname, 'contract'), ...(layoutIcons === icons ? {} : { [layoutIcons]: icons }) },
  history: { type: 'browser' },
  publicPath: '/',
  // Every script and style sheet is named by its content (umi.<hash>.js, <chunk>.<hash>.async.js,
  // ...), so the server lets browsers keep them for good and a second visit downloads none of
  // them (contract/assets.ts, server/src/plugins/web.ts); index.html is always asked again.
  hash: true,
  title: 'coder station 后台管理系统',
  // Zoom stays allowed (WCAG 1.4.4); an administrators' tool is kept out of search engines (with
  // public/robots.txt). `<html lang>` is set in config/bundle.ts.
  metas: [
    { name: 'viewport', content: 'width=device-width, initial-scale=1' },
    { name: 'robots', content: 'noindex, nofollow' },
  ],
  // The title is fixed in index.html; no page sets its own, so react-helmet-async (~4 KB gzipped
  // on every page) has nothing to do.
  helmet: false,
  favicons: ['/favicon.svg'],
  // mock/server.ts is the one mock file. The exclude is left over from a mock/lib that no longer
  // exists: it matches nothing.
  mock: useMock ? { exclude: ['mock/lib/**'] } : false,
  proxy: useMock
    ? {}
    : {
        '/api': { target: server, changeOrigin: true },
        '/res': { target: server, changeOrigin: true },
        '/static': { target: server, changeOrigin: true },
      },
  // An administrators' tool for current evergreen browsers, which have every standard feature the
  // app and its libraries use. config/bundle.ts hands these to Babel's preset-env as well.
  targets: { chrome: 100, edge: 100, firefox: 100, safari: 15 },
  // No core-js (Umi's default pulls in all of it, ~100 KB gzipped): only the regenerator runtime,
  // which dva-loading calls as a global.
  polyfill: { imports: [] },
  // terser's output is ~10 % smaller gzipped than esbuild's (Umi's default): /login 253 → 227 kB.
  jsMinifier: 'terser',
  // Babel targets, `<html lang>` and the two guarded module redirects (ProField, ResizeObserver).
  plugins: ['./config/bundle.ts'],
  chainWebpack(memo) {
    // docs/requirements.md fixes the chunk load time-out at 120 s; stated here so no bundler default moves it.
    memo.output.chunkLoadTimeout(120_000);
    // Umi provides Node's Buffer to every module; only axios names it, on a path that browsers
    // (which have Blob) never take. No Buffer module in the browser (~7 KB gzipped on every page).
    memo.resolve.alias.set('buffer$', false);
    // These packages declare no `sideEffects`, so webpack keeps modules nothing uses: Umi's request
    // plugin re-exports useRequest (never called here), antd's button theme takes one colour class
    // from the colour picker. Declared pure, the unused parts drop out (~9 KB gzipped, every page).
    memo.module
      .rule('pure-packages')
      .test(/[\\/]node_modules[\\/](@ahooksjs[\\/]use-request|@rc-component[\\/]color-picker)[\\/]/)
      .sideEffects(false);
    return memo;
  },
  npmClient: 'npm',
});
