import { describe, expect, it } from 'vitest';
import { hasAppEntryBehind } from './back-to-list';

describe('hasAppEntryBehind', () => {
  it('is true for an entry the router pushed after the first page of the tab', () => {
    expect(hasAppEntryBehind({ usr: null, key: 'abc', idx: 1 })).toBe(true);
    expect(hasAppEntryBehind({ idx: 7 })).toBe(true);
  });

  it('is false for the page the tab landed on and for entries the router did not make', () => {
    expect(hasAppEntryBehind({ usr: null, key: 'default', idx: 0 })).toBe(false);
    expect(hasAppEntryBehind(null)).toBe(false);
    expect(hasAppEntryBehind(undefined)).toBe(false);
    expect(hasAppEntryBehind({ idx: '3' })).toBe(false);
    expect(hasAppEntryBehind('state')).toBe(false);
  });
});
