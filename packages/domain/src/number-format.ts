export const DEFAULT_LOCALE = 'vi-VN';
export const DEFAULT_CURRENCY = 'VND';

/** Printed for NaN, ±Infinity and non-numbers instead of a misleading figure. */
export const AMOUNT_PLACEHOLDER = '—';

/** 1: digit grouping; 2: plain below 10,000, else "12,3 vạn"; anything else: currency (docs/product-rules.md §2). */
export type AmountMode = 1 | 2 | 'currency' | number | string;

export interface AmountOptions {
  /** Defaults to vi-VN. */
  locale?: string;
  /** ISO 4217 code for the currency mode; defaults to VND. */
  currency?: string;
}

/** The formatter shapes formatAmount uses: `grouped` (mode 1), `plain` and `van` (mode 2), `currency`. */
export type AmountFormatterKind = 'grouped' | 'plain' | 'van' | 'currency';

const VAN = 10_000;
const VAN_SUFFIX = ' vạn';
// Mode 2 prints plainly with Intl's default 3 decimals; a value that would round up to 10000 goes to vạn instead.
const PLAIN_FRACTION_SCALE = 1_000;
const CACHE_LIMIT = 64;

const cache = new Map<string, Intl.NumberFormat>();

function formatterOptions(kind: AmountFormatterKind, currency: string): Intl.NumberFormatOptions {
  // 'negative' keeps a minus for negatives but never prints "-0" for -0 or for tiny negatives rounded to zero.
  switch (kind) {
    case 'grouped':
      return { signDisplay: 'negative' };
    case 'plain':
      return { signDisplay: 'negative', useGrouping: false };
    case 'van':
      return { signDisplay: 'negative', minimumFractionDigits: 1, maximumFractionDigits: 1 };
    case 'currency':
      return { signDisplay: 'negative', style: 'currency', currency };
  }
}

/**
 * The shared Intl.NumberFormat for a kind, locale and currency: created on first use, then the same object is
 * returned. Throws Intl's RangeError for an unknown locale or currency code (nothing is cached then).
 */
export function amountFormatter(
  kind: AmountFormatterKind,
  options?: AmountOptions,
): Intl.NumberFormat {
  const locale = options?.locale ?? DEFAULT_LOCALE;
  const currency = kind === 'currency' ? (options?.currency ?? DEFAULT_CURRENCY) : '';
  const key = `${kind}|${locale}|${currency}`;
  let formatter = cache.get(key);
  if (formatter === undefined) {
    formatter = new Intl.NumberFormat(locale, formatterOptions(kind, currency));
    // Keys come from code, not users, so this bound is only a guard against a caller looping over locales.
    if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value as string);
    cache.set(key, formatter);
  }
  return formatter;
}

function formatVan(value: number, options: AmountOptions | undefined): string {
  if (Math.round(Math.abs(value) * PLAIN_FRACTION_SCALE) < VAN * PLAIN_FRACTION_SCALE) {
    return amountFormatter('plain', options).format(value);
  }
  return amountFormatter('van', options).format(value / VAN) + VAN_SUFFIX;
}

/**
 * Formats an amount (docs/product-rules.md §2). Mode 1: `1.234.567`. Mode 2: `9999` below 10,000 (by absolute
 * value), else `12,3 vạn` / `12.345,7 vạn`. Any other mode (the default): `1.234.568 ₫`, with Intl's U+00A0 before
 * the sign.
 * Negatives keep a leading minus (`-12,3 vạn`); -0 prints as 0; NaN, ±Infinity and non-numbers print
 * AMOUNT_PLACEHOLDER.
 */
export function formatAmount(
  value: number,
  mode: AmountMode = 'currency',
  options?: AmountOptions,
): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return AMOUNT_PLACEHOLDER;
  if (mode === 1) return amountFormatter('grouped', options).format(value);
  if (mode === 2) return formatVan(value, options);
  return amountFormatter('currency', options).format(value);
}
