import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach, beforeAll, vi } from 'vitest';
import { installMatchMedia, resetMatchMedia } from './match-media';

beforeAll(() => {
  installMatchMedia();
  // Radix measures its popovers with ResizeObserver and uses pointer capture; jsdom implements neither.
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  };
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  resetMatchMedia();
  document.cookie = 'sidebar_state=; path=/; max-age=0';
  document.documentElement.removeAttribute('data-sidebar-state');
  window.localStorage.clear();
});
