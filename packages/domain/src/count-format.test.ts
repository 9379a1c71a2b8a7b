import { describe, expect, it } from 'vitest';
import { formatFileSize, formatLargeCount, formatTuVi } from './count-format.ts';

describe('formatLargeCount', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1_000, '1 nghìn'],
    [1_500, '1,5 nghìn'],
    [4_001, '4 nghìn'],
    [1e4, '10 nghìn'],
    [999_999, '999,9 nghìn'],
    [1e6, '1 triệu'],
    [2.3e6, '2,3 triệu'],
    [1e8, '100 triệu'],
    [1e9, '1 tỷ'],
    [1e12, '1 nghìn tỷ'],
    [1e15, '1 triệu tỷ'],
    [2 ** 53 - 1, '9 triệu tỷ'],
    [1e18, '1.000 triệu tỷ'],
    [-4_001, '-4 nghìn'],
  ])('words %d as "%s"', (value, expected) => {
    expect(formatLargeCount(value)).toBe(expected);
  });

  it('never rounds a limit up: 1.999 is "1,9 nghìn", not "2 nghìn"', () => {
    expect(formatLargeCount(1_999)).toBe('1,9 nghìn');
  });

  it.each([NaN, Infinity, -Infinity, '5' as unknown as number])(
    'prints the placeholder for %s',
    (value) => {
      expect(formatLargeCount(value)).toBe('—');
    },
  );
});

describe('formatFileSize', () => {
  it.each([
    [0, '0 B'],
    [59, '59 B'],
    [1_023, '1.023 B'],
    [1_024, '1 KB'],
    [1_536, '1,5 KB'],
    [1_048_524, '1.023,9 KB'],
    [1_048_525, '1 MB'],
    [1.2 * 1024 * 1024, '1,2 MB'],
    [5 * 1024 * 1024 - 1, '5 MB'],
    [100 * 1024 * 1024, '100 MB'],
    [3 * 1024 ** 3, '3 GB'],
  ])('prints %d bytes as "%s"', (bytes, expected) => {
    expect(formatFileSize(bytes)).toBe(expected);
  });

  it.each([-1, NaN, Infinity, '59' as unknown as number])(
    'prints the placeholder for %s',
    (bytes) => {
      expect(formatFileSize(bytes)).toBe('—');
    },
  );
});

describe('formatTuVi', () => {
  it.each([
    [0, '0'],
    [4_001, '4.001'],
    [9_999, '9.999'],
    [10_000, '1,0 vạn'],
    [123_456, '12,3 vạn'],
    [-1, '-1'],
  ])('prints %d as "%s"', (value, expected) => {
    expect(formatTuVi(value)).toBe(expected);
  });

  it('prints the placeholder for NaN', () => {
    expect(formatTuVi(NaN)).toBe('—');
  });
});
