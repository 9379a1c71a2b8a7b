import { describe, expect, it } from 'vitest';
import { createLruCache } from './lru-cache.ts';

describe('createLruCache', () => {
  it('forgets an entry once its time to live has passed', () => {
    let now = 1000;
    const cache = createLruCache<string>(10, () => now);
    cache.set('a', 'tiên', 500);
    expect(cache.get('a')).toBe('tiên');
    now = 1500;
    expect(cache.get('a')).toBeUndefined();
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = createLruCache<number>(2);
    cache.set('a', 1, 60_000);
    cache.set('b', 2, 60_000);
    cache.get('a');
    cache.set('c', 3, 60_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(1);
    expect(cache.get('c')).toBe(3);
  });
});
