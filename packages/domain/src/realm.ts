import { REALMS, realmRowName } from './realm-table.ts';
import type { RealmReading, RealmRow } from './realm-table.ts';

/** Shown instead of a realm for negative values, NaN and anything that is not a number. */
export const INVALID_TU_VI = 'Tu vi không hợp lệ';

export interface RealmOptions {
  /** Defaults to `full` ("Kim Đan Sơ Kỳ"). */
  reading?: RealmReading;
}

/** The realm of a valid tu vi value, with where it sits inside its row and what comes next. */
export interface Realm {
  valid: true;
  name: string;
  major: string;
  stage: string | null;
  /** Row index in REALMS. */
  index: number;
  /** The previous row's upper bound (0 for the first row): values are in (lower, upper], the first row in [0, 100]. */
  lower: number;
  /** Inclusive upper bound; Infinity for Tiên Nhân. */
  upper: number;
  /** The next row, entered by any value above `upper`; null for Tiên Nhân. */
  next: { name: string; index: number; lower: number } | null;
  /** 0..1: the position of the value inside [lower, upper]; 1 for Tiên Nhân. */
  progress: number;
}

export interface InvalidRealm {
  valid: false;
  name: typeof INVALID_TU_VI;
}

// The bounds in a typed array keep the binary search on unboxed doubles; the last one is Infinity,
// so every valid value finds a row.
const UPPERS = Float64Array.from(REALMS, (row) => row.upper);
const LAST = REALMS.length - 1;

// Names are computed once per reading, so realmName allocates nothing.
const NAMES: Record<RealmReading, readonly string[]> = {
  full: REALMS.map((row) => realmRowName(row, 'full')),
  short: REALMS.map((row) => realmRowName(row, 'short')),
};

const INVALID: InvalidRealm = Object.freeze({ valid: false, name: INVALID_TU_VI });

function isValidTuVi(tuVi: unknown): tuVi is number {
  // `>= 0` also rejects NaN and accepts -0.
  return typeof tuVi === 'number' && tuVi >= 0;
}

function namesFor(options: RealmOptions | undefined): readonly string[] {
  return options?.reading === 'short' ? NAMES.short : NAMES.full;
}

/** Index in REALMS of the row holding `tuVi`, or -1 when the value is not a valid tu vi. Binary search. */
export function realmIndexOf(tuVi: unknown): number {
  if (!isValidTuVi(tuVi)) return -1;
  let lo = 0;
  let hi = LAST;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (tuVi <= (UPPERS[mid] as number)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The realm of a tu vi value, or the invalid marker for negative values, NaN and non-numbers. */
export function realmOf(tuVi: unknown, options?: RealmOptions): Realm | InvalidRealm {
  const index = realmIndexOf(tuVi);
  if (index < 0) return INVALID;
  const value = tuVi as number;
  const names = namesFor(options);
  const row = REALMS[index] as RealmRow;
  const lower = index === 0 ? 0 : (UPPERS[index - 1] as number);
  const isLast = index === LAST;
  return {
    valid: true,
    name: names[index] as string,
    major: row.major,
    stage: row.stage,
    index,
    lower,
    upper: row.upper,
    next: isLast ? null : { name: names[index + 1] as string, index: index + 1, lower: row.upper },
    progress: isLast ? 1 : Math.min(1, Math.max(0, (value - lower) / (row.upper - lower))),
  };
}

/** The realm name of a tu vi value ("Kim Đan Sơ Kỳ"), or INVALID_TU_VI. */
export function realmName(tuVi: unknown, options?: RealmOptions): string {
  const index = realmIndexOf(tuVi);
  return index < 0 ? INVALID_TU_VI : (namesFor(options)[index] as string);
}
