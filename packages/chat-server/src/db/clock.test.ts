import { describe, expect, it } from 'vitest';
import { createClock, isoJustBefore, normalizeIso, timeOrderedId } from './clock.ts';

describe('clock', () => {
  it('never returns the same timestamp twice and keeps them sortable as text', () => {
    const clock = createClock();
    const stamps = Array.from({ length: 2000 }, () => clock.now());
    expect(new Set(stamps).size).toBe(stamps.length);
    expect([...stamps].sort()).toEqual(stamps);
    expect(stamps[0]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('normalizes client dates to six fractional digits and keeps microseconds', () => {
    expect(normalizeIso('2024-05-01T10:00:00Z')).toBe('2024-05-01T10:00:00.000000Z');
    expect(normalizeIso('2024-05-01T10:00:00.123456Z')).toBe('2024-05-01T10:00:00.123456Z');
    expect(normalizeIso('2024-05-01T12:00:00.5+02:00')).toBe('2024-05-01T10:00:00.500000Z');
    expect(normalizeIso('yesterday')).toBeNull();
  });

  it('steps one microsecond back, across a millisecond boundary too', () => {
    expect(isoJustBefore('2024-05-01T10:00:00.123456Z')).toBe('2024-05-01T10:00:00.123455Z');
    expect(isoJustBefore('2024-05-01T10:00:00.000000Z')).toBe('2024-05-01T09:59:59.999999Z');
  });

  it('generates time-ordered ids that sort in creation order', () => {
    const ids = Array.from({ length: 500 }, () => timeOrderedId());
    expect([...ids].sort()).toEqual(ids);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
