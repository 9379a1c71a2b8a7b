import { chatError } from '../../../errors.ts';

/**
 * Bounds on the numbers a client sends for paging. Unbounded, an offset of 1e30 reaches the database as an out of
 * range integer (a 500); these keep every limit and offset a small integer and refuse the rest with code 4.
 */
export const PAGE_BOUNDS = {
  /** Stream's cap on `offset` for query channels, users, search and most other list endpoints. */
  maxOffset: 1000,
  /**
   * Offsets carried inside our opaque `next`/`prev` cursors. Clients only echo cursors back, so a larger one was
   * forged; this is far beyond any list a person pages through.
   */
  maxCursorOffset: 100_000,
} as const;

export interface IntBounds {
  min: number;
  max: number;
  /** Used when the value is absent (undefined, null or an empty query string). */
  fallback: number;
}

/**
 * An integer within `bounds`, from a JSON number or a query-string numeral ("25"); anything else is a code 4 error
 * naming the parameter and its range.
 */
export function boundedInt(value: unknown, name: string, bounds: IntBounds): number {
  if (value === undefined || value === null || value === '') return bounds.fallback;
  const n = typeof value === 'string' && /^-?\d{1,16}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < bounds.min || n > bounds.max)
    throw chatError.input(`${name} must be an integer between ${bounds.min} and ${bounds.max}`);
  return n;
}

/** A cursor's decoded offset, refused with code 4 (naming the cursor) unless it is a plausible position. */
export function cursorOffset(value: unknown, name: string): number {
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 0 ||
    value > PAGE_BOUNDS.maxCursorOffset
  )
    throw chatError.input(`${name} is not a valid cursor`);
  return value;
}
