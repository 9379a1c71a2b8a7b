import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach, beforeAll, vi } from 'vitest';
import { loadCataloguePart } from '@/i18n';
import { installMatchMedia, resetMatchMedia } from './match-media';

// findBy*/waitFor give up after 1 s by default, which a loaded machine (tests run six times slower there) can
// exceed for work that takes milliseconds alone; still well under the test timeout, so a real miss reports the DOM.
configure({ asyncUtilTimeout: 5000 });

// Components are rendered on their own here, without the screens that load their catalogue parts in the app; the
// parts are in before any test file runs, so texts a test reads at import time are there too.
await Promise.all(
  (['admin', 'profile', 'cultivation', 'chat'] as const).map((part) => loadCataloguePart(part)),
);

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
  // sonner keeps its toasts in module state and replays the ones still active to every Toaster that mounts,
  // so a toast a test left on screen would show up again in the next test of the same file.
  toast.dismiss();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  resetMatchMedia();
  document.cookie = 'sidebar_state=; path=/; max-age=0';
  document.documentElement.removeAttribute('data-sidebar-state');
  window.localStorage.clear();
});
