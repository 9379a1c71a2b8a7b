import { useCallback, useSyncExternalStore } from 'react';

/** Desktop layout starts here (docs/product-rules.md §4: tablet is under 992px). */
export const DESKTOP_QUERY = '(min-width: 992px)';
export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

interface QueryStore {
  list: MediaQueryList;
  /** The answer every subscriber was last told. */
  matches: boolean;
  subscribers: Set<() => void>;
}

// The single media-query store of the app: one MediaQueryList per query, shared by every subscriber, read
// synchronously so the first render already agrees with the viewport.
const stores = new Map<string, QueryStore>();

function storeFor(query: string): QueryStore {
  let store = stores.get(query);
  if (!store) {
    const list = window.matchMedia(query);
    const created: QueryStore = { list, matches: list.matches, subscribers: new Set() };
    list.addEventListener('change', () => refresh(created));
    stores.set(query, created);
    store = created;
  }
  return store;
}

function refresh(store: QueryStore): void {
  const matches = store.list.matches;
  if (matches === store.matches) return;
  store.matches = matches;
  for (const subscriber of store.subscribers) subscriber();
}

/**
 * The list's current answer. Chromium fires `change` only when the answer differs from the list's last evaluation,
 * and reading `matches` is one: a render that reads the list between a system change (dark mode turned on, a window
 * resized) and the browser's own evaluation swallows the event, and the other subscribers would never hear of it. So
 * whichever read finds the new answer tells everyone; after this render, since a render must not update others.
 */
function read(store: QueryStore): boolean {
  const matches = store.list.matches;
  if (matches !== store.matches) queueMicrotask(() => refresh(store));
  return matches;
}

export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const store = storeFor(query);
      store.subscribers.add(onChange);
      return () => {
        store.subscribers.delete(onChange);
      };
    },
    [query],
  );
  const getSnapshot = useCallback(() => read(storeFor(query)), [query]);
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}

/** True under 992px, where the sidebar becomes a sheet. */
export function useIsMobile(): boolean {
  return !useMediaQuery(DESKTOP_QUERY);
}
