import '@testing-library/jest-dom';

// jsdom lacks the layout APIs that antd and ProComponents call while rendering.

if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    configurable: true,
    value: (query: string): MediaQueryList => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

class ResizeObserverStub implements ResizeObserver {
  observe(): void {}
  unobserve(): void {}
  disconnect(): void {}
}
if (!window.ResizeObserver) window.ResizeObserver = ResizeObserverStub;

// rc-table and rc-virtual-list measure scrollbars through getComputedStyle with a pseudo element,
// which jsdom does not implement and reports as an error on every call.
const computeStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => computeStyle(element);

if (!window.scrollTo) window.scrollTo = () => undefined;
window.HTMLElement.prototype.scrollIntoView = () => undefined;
