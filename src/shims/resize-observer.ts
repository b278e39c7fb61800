// Stands in for the resize-observer-polyfill package wherever a library imports it (redirected in
// config/bundle.ts, production builds only): every browser the build targets (.umirc.ts `targets`)
// has ResizeObserver, and the polyfill costs ~5 KB gzipped on every page, the login page included.
export default window.ResizeObserver;
