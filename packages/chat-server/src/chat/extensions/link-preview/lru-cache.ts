/** A small LRU map whose entries also expire (link previews change, and failures should be retried later). */
export interface LruCache<V> {
  get(key: string): V | undefined;
  set(key: string, value: V, ttlMs: number): void;
}

export function createLruCache<V>(capacity: number, now: () => number = Date.now): LruCache<V> {
  const entries = new Map<string, { value: V; expiresAt: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      entries.delete(key);
      if (entry.expiresAt <= now()) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, ttlMs) {
      if (capacity <= 0) return;
      entries.delete(key);
      entries.set(key, { value, expiresAt: now() + ttlMs });
      while (entries.size > capacity) entries.delete(entries.keys().next().value!);
    },
  };
}
