import { describe, expect, it } from 'vitest';
import { FixedWindowCounter } from './fixed-window-counter.ts';

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('FixedWindowCounter', () => {
  it('counts events per key within a window', () => {
    const time = clock();
    const counter = new FixedWindowCounter({ windowMs: 60_000, now: time.now });
    expect(counter.add('a')).toBe(1);
    expect(counter.add('a')).toBe(2);
    expect(counter.add('b')).toBe(1);
    expect(counter.count('a')).toBe(2);
    expect(counter.count('unknown')).toBe(0);
  });

  it('starts over once the window has passed', () => {
    const time = clock();
    const counter = new FixedWindowCounter({ windowMs: 60_000, now: time.now });
    counter.add('a');
    counter.add('a');
    time.advance(59_999);
    expect(counter.count('a')).toBe(2);
    time.advance(1);
    expect(counter.count('a')).toBe(0);
    expect(counter.add('a')).toBe(1);
  });

  it('reports the seconds left in the window, at least one', () => {
    const time = clock();
    const counter = new FixedWindowCounter({ windowMs: 900_000, now: time.now });
    counter.add('a');
    expect(counter.retryAfterSeconds('a')).toBe(900);
    time.advance(899_500);
    expect(counter.retryAfterSeconds('a')).toBe(1);
    expect(counter.retryAfterSeconds('never-seen')).toBe(1);
  });

  it('forgets the oldest keys instead of growing past its bound', () => {
    const time = clock();
    const counter = new FixedWindowCounter({ windowMs: 60_000, now: time.now, maxKeys: 3 });
    for (const key of ['a', 'b', 'c', 'd']) counter.add(key);
    expect(counter.count('a')).toBe(0);
    expect(counter.count('d')).toBe(1);
  });
});
