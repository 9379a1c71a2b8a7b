import { useCallback, useSyncExternalStore } from 'react';

/** Desktop layout starts here (docs/product-rules.md §4: tablet is under 992px). */
export const DESKTOP_QUERY = '(min-width: 992px)';
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

// The single media-query store of the app: one MediaQueryList per query, shared by every subscriber,
// read synchronously so the first render already agrees with the viewport.
const lists = new Map<string, MediaQueryList>();

function listFor(query: string): MediaQueryList {
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = listFor(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  const getSnapshot = useCallback(() => listFor(query).matches, [query]);
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}

/** True under 992px, where the sidebar becomes a sheet. */
export function useIsMobile(): boolean {
  return !useMediaQuery(DESKTOP_QUERY);
}
