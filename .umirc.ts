import { defineConfig } from '@umijs/max';
import routes from './config/routes';

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
  favicons: ['/favicon.svg'],
  // mock/lib holds the shared in-memory store; it is imported by the handlers, not a handler map.
  mock: useMock ? { exclude: ['mock/lib/**'] } : false,
  proxy: useMock
    ? {}
    : {
        '/api': { target: server, changeOrigin: true },
        '/res': { target: server, changeOrigin: true },
        '/static': { target: server, changeOrigin: true },
      },
  // An administrators' tool for current evergreen browsers, which have every standard feature the
  // app and its libraries use: no core-js (Umi's default pulls in all of it, ~100 KB gzipped).
  // Umi still adds the regenerator runtime, which dva-core needs.
  targets: { chrome: 100, edge: 100, firefox: 100, safari: 15 },
  polyfill: { imports: [] },
  // esbuild's minifier hoists its helpers to top-level names in each async chunk; with the editor
  // and cropper chunks two of them clash (Umi's helper checker stops the build). Wrapping every
  // chunk in its own function scope keeps the names apart.
  esbuildMinifyIIFE: true,
  chainWebpack(memo) {
    // SPEC §9 fixes the chunk load time-out at 120 s; stated here so no bundler default moves it.
    memo.output.chunkLoadTimeout(120_000);
    // Umi provides Node's Buffer to every module; only axios names it, on a path that browsers
    // (which have Blob) never take, and the polyfill costs ~7 KB gzipped on every page.
    memo.plugin('node-polyfill-provider').tap((args) => {
      const { Buffer: _unused, ...provided } = args[0] as Record<string, unknown>;
      return [provided];
    });
    // Native ResizeObserver instead of its polyfill: see src/shims/resize-observer.ts.
    memo.resolve.alias.set('resize-observer-polyfill$', require.resolve('./src/shims/resize-observer.ts'));
    // These packages declare no `sideEffects`, so webpack keeps every module they export even when
    // nothing uses it: Umi's request plugin re-exports useRequest (which we never call) and antd's
    // button theme imports one colour class from the colour picker. Marked pure, the unused parts
    // drop out of the entry chunk (-9 KB gzipped on every page).
    memo.module
      .rule('pure-packages')
      .test(/[\\/]node_modules[\\/](@ahooksjs[\\/]use-request|@rc-component[\\/]color-picker)[\\/]/)
      .sideEffects(false);
    return memo;
  },
  npmClient: 'npm',
});
