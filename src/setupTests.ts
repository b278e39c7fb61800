import '@testing-library/jest-dom';
import { act, configure } from '@testing-library/react';
// dva-loading calls a global regeneratorRuntime; the build provides it through Umi's polyfill setting (.umirc.ts).
import regeneratorRuntime from '@babel/runtime/regenerator';
import { message } from '@/utils/feedback';

// findBy*/waitFor give up after 1 s by default; on a loaded 2-core CI machine a lazily loaded page
// or a routed redirect can take longer than that without anything being wrong.
configure({ asyncUtilTimeout: 5000 });

Object.assign(globalThis, { regeneratorRuntime });

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

// jsdom's getComputedStyle cascades every stylesheet for each call, and antd's CSS-in-JS puts
// thousands of rules in the page: role and name queries then take seconds per element. There is
// no layout in jsdom to compute anyway, so the inline style stands in for the computed one (this
// also covers the pseudo-element form, which jsdom does not implement).
window.getComputedStyle = (element: Element) => (element as HTMLElement).style ?? document.createElement('div').style;

if (!window.scrollTo) window.scrollTo = () => undefined;
window.HTMLElement.prototype.scrollIntoView = () => undefined;

// ProseMirror (the rich editor) measures the selection to map clicks and keys to positions; with
// no layout, every box is empty and no point is over an element.
const noRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
// jsdom has no DOMRect either.
const emptyRect = (): DOMRect => {
  const box = { x: 0, y: 0, width: 0, height: 0, top: 0, right: 0, bottom: 0, left: 0 };
  return { ...box, toJSON: () => box };
};
if (!document.elementFromPoint) document.elementFromPoint = () => null;
Range.prototype.getClientRects ??= noRects;
Range.prototype.getBoundingClientRect ??= emptyRect;
// A text node is measured through a Range in browsers; ProseMirror also asks the node itself.
(Text.prototype as Text & { getClientRects?: () => DOMRectList }).getClientRects ??= noRects;

// antd's static messages live outside the tested tree and would outlast the test that raised them.
afterEach(() => {
  act(() => message.destroy());
});
