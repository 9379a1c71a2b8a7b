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

/**
 * False until the first screen has its content (the signed-in check has answered) and the browser then had a free
 * moment. Parts of the shell that the first screen can show without (menus, tooltips) load from then on.
 */
export function useAfterFirstContent(settled: boolean): boolean {
  const [ready, setReady] = React.useState(false);
  React.useEffect(() => {
    if (!settled || ready) return;
    let cancelled = false;
    void whenIdle().then(() => {
      if (!cancelled) setReady(true);
    });
    return () => {
      cancelled = true;
    };
  }, [settled, ready]);
  return ready;
}
