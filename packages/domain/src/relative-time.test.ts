import { describe, expect, it } from 'vitest';
import { formatDurationVi, formatRelativeVi, formatReminderDue } from './relative-time.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatRelativeVi', () => {
  it.each([
    [0, 'bây giờ'],
    [400, 'bây giờ'],
    [-999, 'bây giờ'],
    [5 * SECOND, 'sau 5 giây'],
    [-45 * SECOND, '45 giây trước'],
    [2 * MINUTE, 'sau 2 phút'],
    [-7 * MINUTE, '7 phút trước'],
    [59 * MINUTE + 40 * SECOND, 'sau 1 giờ'],
    [HOUR, 'sau 1 giờ'],
    [2 * HOUR, 'sau 2 giờ'],
    [-8 * HOUR, '8 giờ trước'],
    [DAY, 'sau 1 ngày'],
    [-3 * DAY, '3 ngày trước'],
    [400 * DAY, 'sau 400 ngày'],
  ])('words %d ms as "%s"', (milliseconds, expected) => {
    expect(formatRelativeVi(milliseconds)).toBe(expected);
  });

  it('never mixes "trong", "tới" or a word-number like "một"', () => {
    for (const milliseconds of [HOUR, DAY, 2 * MINUTE, -HOUR]) {
      expect(formatRelativeVi(milliseconds)).not.toMatch(/trong|tới|một/);
    }
  });

  it.each([NaN, Infinity, -Infinity])('prints the placeholder for %s', (milliseconds) => {
    expect(formatRelativeVi(milliseconds)).toBe('—');
  });
});

describe('formatDurationVi', () => {
  it.each([
    [0, '0 giây'],
    [59 * SECOND, '59 giây'],
    [-90 * SECOND, '2 phút'],
    [23 * HOUR, '23 giờ'],
    [1_000 * DAY, '1.000 ngày'],
  ])('words %d ms as "%s"', (milliseconds, expected) => {
    expect(formatDurationVi(milliseconds)).toBe(expected);
  });
});

describe('formatReminderDue', () => {
  it.each([
    [2 * MINUTE, 'Đến hạn sau 2 phút'],
    [HOUR, 'Đến hạn sau 1 giờ'],
    [-7 * MINUTE, 'Đã quá hạn 7 phút'],
    [-2 * DAY, 'Đã quá hạn 2 ngày'],
    [0, 'Đến hạn bây giờ'],
  ])('words %d ms as "%s"', (milliseconds, expected) => {
    expect(formatReminderDue(milliseconds)).toBe(expected);
  });

  it('prints the placeholder for NaN', () => {
    expect(formatReminderDue(NaN)).toBe('—');
  });
});
