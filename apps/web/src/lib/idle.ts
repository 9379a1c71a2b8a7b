import * as React from 'react';

/** Longest wait for an idle moment: a busy page still gets the deferred work within this time. */
const IDLE_TIMEOUT_MS = 1500;

/**
 * Resolves once the browser has painted and has a free moment. Work that the first screen does not show (the
 * sidebar's chat badge, the toaster) waits for it, so its code is not part of the first load.
 */
export function whenIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof window.requestIdleCallback === 'function') {
      window.requestIdleCallback(() => resolve(), { timeout: IDLE_TIMEOUT_MS });
    } else {
      setTimeout(resolve, 1);
    }
  });
}

/** Longest a screen may hold the deferred parts back while its own first content is on the way. */
const SCREEN_CONTENT_LIMIT_MS = 5000;

let firstContentPassed = false;
let screenContentPending = false;
let screenContentShown: () => void = () => undefined;
const screenContent = new Promise<void>((resolve) => {
  screenContentShown = () => {
    screenContentPending = false;
    resolve();
  };
});

/**
 * For a screen whose first content comes well after the shell's (the chat's first messages: its code, the connection
 * and the channel query come first): when the page opens on it, the deferred parts of the shell wait until the screen
 * calls `useScreenContentShown`, or at most SCREEN_CONTENT_LIMIT_MS, instead of competing with it for the network and
 * the main thread. Call it before the shell's first content (when the screen's code is first asked for); once the
 * page's first content has passed, it does nothing.
 */
export function deferUntilScreenContent(): void {
  if (firstContentPassed || screenContentPending) return;
  screenContentPending = true;
  setTimeout(screenContentShown, SCREEN_CONTENT_LIMIT_MS);
}

/**
 * The screen that deferred the shell's parts has shown its first content (or given up: an error, nothing to show),
 * once `shown` is true.
 */
export function useScreenContentShown(shown = true): void {
  React.useEffect(() => {
    if (shown) screenContentShown();
  }, [shown]);
}

/** Resolves once the page's own resources (images, the first screen's scripts) have loaded: `load` has fired. */
function whenPageLoaded(): Promise<void> {
  if (document.readyState === 'complete') return Promise.resolve();
  return new Promise((resolve) => window.addEventListener('load', () => resolve(), { once: true }));
}

async function whenFirstContent(): Promise<void> {
  firstContentPassed = true;
  if (screenContentPending) await screenContent;
  await whenPageLoaded();
}

/**
 * False until the first screen has its content (the signed-in check has answered, and a screen that deferred the
 * shell's parts has shown its own), the page has loaded, and the browser then had a free moment. Parts of the shell that the first screen
 * can show without (menus, the toaster, the bell) load from then on.
 */
export function useAfterFirstContent(settled: boolean): boolean {
  const [ready, setReady] = React.useState(false);
  React.useEffect(() => {
    if (!settled || ready) return;
    let cancelled = false;
    void whenFirstContent()
      .then(whenIdle)
      .then(() => {
        if (!cancelled) setReady(true);
      });
    return () => {
      cancelled = true;
    };
  }, [settled, ready]);
  return ready;
}
