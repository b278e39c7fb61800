// Stands in for the resize-observer-polyfill package that antd's rc-resize-observer imports: every
// browser the build targets (.umirc.ts `targets`) has ResizeObserver, and the polyfill costs ~8 KB
// gzipped on every page, the login page included.
export default window.ResizeObserver;
