import { AMOUNT_PLACEHOLDER, DEFAULT_LOCALE, formatAmount } from './number-format.ts';

/** The Vietnamese words for large counts, biggest first: 10^15 is "triệu tỷ", 10^12 "nghìn tỷ". */
const LARGE_COUNT_WORDS: readonly (readonly [number, string])[] = [
  [1e15, 'triệu tỷ'],
  [1e12, 'nghìn tỷ'],
  [1e9, 'tỷ'],
  [1e6, 'triệu'],
  [1e3, 'nghìn'],
];

const oneDecimal = new Intl.NumberFormat(DEFAULT_LOCALE, {
  maximumFractionDigits: 1,
  signDisplay: 'negative',
});

// Guards the truncation below against 2.3e6 / 1e6 * 10 landing a hair under 23.
const TRUNCATION_EPSILON = 1e-9;

function truncateToTenths(value: number): number {
  const tenths = Math.abs(value) * 10;
  return (Math.sign(value) * Math.trunc(tenths + TRUNCATION_EPSILON)) / 10;
}

/**
 * A count in the words a player reads aloud: "950", "4 nghìn", "1,5 triệu", "9 triệu tỷ". Below one thousand the
 * count is printed whole (vi-VN grouping); above, it is cut (never rounded up) to one decimal, so a limit printed
 * this way ("tối đa 9 triệu tỷ") is never more than the real one. NaN, ±Infinity and non-numbers print "—".
 */
export function formatLargeCount(value: number): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return AMOUNT_PLACEHOLDER;
  const size = Math.abs(value);
  for (const [scale, word] of LARGE_COUNT_WORDS) {
    if (size >= scale) return `${oneDecimal.format(truncateToTenths(value / scale))} ${word}`;
  }
  return formatAmount(value, 1);
}

const FILE_SIZE_UNITS = ['B', 'KB', 'MB', 'GB', 'TB'] as const;
const FILE_SIZE_STEP = 1024;

/**
 * A byte count the way file managers show it, in vi-VN: "59 B", "1,2 MB" (steps of 1024, at most one decimal).
 * Negative sizes, NaN, ±Infinity and non-numbers print "—".
 */
export function formatFileSize(bytes: number): string {
  if (typeof bytes !== 'number' || !Number.isFinite(bytes) || bytes < 0) return AMOUNT_PLACEHOLDER;
  let size = bytes;
  let unit = 0;
  // Move up a unit while the rounded figure would read 1024 or more (1023,96 KB prints as 1 MB, not "1.024 KB").
  while (unit < FILE_SIZE_UNITS.length - 1 && Math.round(size * 10) / 10 >= FILE_SIZE_STEP) {
    size /= FILE_SIZE_STEP;
    unit += 1;
  }
  const figure = unit === 0 ? Math.round(size) : size;
  return `${oneDecimal.format(figure)} ${FILE_SIZE_UNITS[unit]}`;
}

const ONE_VAN = 10_000;

/**
 * A tu vi value as the app shows it: grouped vi-VN below one vạn ("4.001"), and in vạn from there on ("12,3 vạn"),
 * so a large value still fits a headline. The amount modes themselves (formatAmount) are unchanged.
 */
export function formatTuVi(value: number): string {
  if (typeof value === 'number' && Math.abs(value) >= ONE_VAN) return formatAmount(value, 2);
  return formatAmount(value, 1);
}
