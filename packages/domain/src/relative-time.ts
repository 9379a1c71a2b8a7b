import { AMOUNT_PLACEHOLDER, formatAmount } from './number-format.ts';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Each unit, smallest first, with how many of it make the next one. */
const UNITS: readonly (readonly [number, string, number])[] = [
  [SECOND, 'giây', 60],
  [MINUTE, 'phút', 60],
  [HOUR, 'giờ', 24],
  [DAY, 'ngày', Infinity],
];

/**
 * A length of time in the one unit that fits it, rounded: "45 giây", "2 phút", "1 giờ", "3 ngày". The sign is
 * ignored (callers say "sau" or "trước"); under half a second is "0 giây". NaN and ±Infinity print "—".
 */
export function formatDurationVi(milliseconds: number): string {
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds)) return AMOUNT_PLACEHOLDER;
  const size = Math.abs(milliseconds);
  for (const [length, word, perNext] of UNITS) {
    // Rounding decides the unit, so 59 min 40 s reads "1 giờ" rather than "60 phút".
    const count = Math.round(size / length);
    if (count < perNext) return `${formatAmount(count, 1)} ${word}`;
  }
  return AMOUNT_PLACEHOLDER;
}

/** Under this the moment counts as now: "bây giờ" reads better than "sau 0 giây". */
const NOW_WITHIN = SECOND;

/**
 * A point in time relative to now, `milliseconds` ahead (positive) or ago (negative): "sau 2 phút", "7 phút trước",
 * "bây giờ". The one Vietnamese relative-time wording of the app.
 */
export function formatRelativeVi(milliseconds: number): string {
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds)) return AMOUNT_PLACEHOLDER;
  if (Math.abs(milliseconds) < NOW_WITHIN) return 'bây giờ';
  const duration = formatDurationVi(milliseconds);
  return milliseconds > 0 ? `sau ${duration}` : `${duration} trước`;
}

/**
 * When a reminder is due, `milliseconds` from now: "Đến hạn sau 2 phút", "Đã quá hạn 7 phút", "Đến hạn bây giờ".
 */
export function formatReminderDue(milliseconds: number): string {
  if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds)) return AMOUNT_PLACEHOLDER;
  if (Math.abs(milliseconds) < NOW_WITHIN) return 'Đến hạn bây giờ';
  if (milliseconds > 0) return `Đến hạn ${formatRelativeVi(milliseconds)}`;
  return `Đã quá hạn ${formatDurationVi(milliseconds)}`;
}
