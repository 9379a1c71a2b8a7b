import { describe, expect, it } from 'vitest';
import { AMOUNT_PLACEHOLDER, amountFormatter, formatAmount } from './number-format.ts';

// Intl puts a no-break space (U+00A0) between the figure and the currency sign on Node 20.20 / ICU 78.
const NBSP = '\u00a0';

describe('formatAmount in mode 1 (digit grouping)', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [999, '999'],
    [9_999, '9.999'],
    [1_234_567, '1.234.567'],
    [1_234_567.89, '1.234.567,89'],
    [1_234.5678, '1.234,568'],
    [0.5, '0,5'],
    [1e12, '1.000.000.000.000'],
    [-1_234_567.89, '-1.234.567,89'],
    [-0, '0'],
    [-0.0001, '0'],
  ])('prints %d as "%s"', (value, expected) => {
    expect(formatAmount(value, 1)).toBe(expected);
  });
});

describe('formatAmount in mode 2 (vạn)', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [999, '999'],
    [9_999, '9999'],
    [9_999.4, '9999,4'],
    [1_234.5678, '1234,568'],
    [10_000, '1,0 vạn'],
    [10_001, '1,0 vạn'],
    [12_345, '1,2 vạn'],
    [123_456, '12,3 vạn'],
    [99_999.99, '10,0 vạn'],
    [1_234_567, '123,5 vạn'],
    [123_456_789, '12.345,7 vạn'],
    [1e12, '100.000.000,0 vạn'],
    [-1, '-1'],
    [-9_999, '-9999'],
    [-10_000, '-1,0 vạn'],
    [-123_456, '-12,3 vạn'],
    [-0, '0'],
    [-0.0001, '0'],
  ])('prints %d as "%s"', (value, expected) => {
    expect(formatAmount(value, 2)).toBe(expected);
  });

  it('moves a value that would print as 10000 to vạn rather than showing "10000"', () => {
    expect(formatAmount(9_999.9999, 2)).toBe('1,0 vạn');
  });
});

describe('formatAmount in currency mode', () => {
  it.each([
    [0, `0${NBSP}₫`],
    [1, `1${NBSP}₫`],
    [0.5, `1${NBSP}₫`],
    [9_999.4, `9.999${NBSP}₫`],
    [1_234_567.89, `1.234.568${NBSP}₫`],
    [1e12, `1.000.000.000.000${NBSP}₫`],
    [-1_234_567.89, `-1.234.568${NBSP}₫`],
    [-0, `0${NBSP}₫`],
    [-0.4, `0${NBSP}₫`],
  ])('prints %d as "%s"', (value, expected) => {
    expect(formatAmount(value)).toBe(expected);
    expect(formatAmount(value, 'currency')).toBe(expected);
  });

  it('pins the separator before ₫ to U+00A0', () => {
    expect(formatAmount(1_234_567.89)).toBe('1.234.568\u00a0₫');
    expect(formatAmount(1_234_567.89)).not.toBe('1.234.568 ₫');
  });

  it.each([[3], [0], [-1], [1.5], ['1'], ['2'], ['vnd'], ['']] as const)(
    'treats mode %j as the currency mode',
    (mode) => {
      expect(formatAmount(123_456, mode)).toBe(`123.456${NBSP}₫`);
    },
  );
});

describe('formatAmount options', () => {
  it.each([
    [1_234_567.89, 1, { locale: 'en-US' }, '1,234,567.89'],
    [123_456, 2, { locale: 'en-US' }, '12.3 vạn'],
    [1_234_567.89, 'currency', { currency: 'USD' }, `1.234.567,89${NBSP}US$`],
    [1_234_567.89, 'currency', { locale: 'en-US', currency: 'USD' }, '$1,234,567.89'],
    [1_234_567.89, 'currency', { locale: 'de-DE', currency: 'EUR' }, `1.234.567,89${NBSP}€`],
  ] as const)('prints %d in mode %j with %o as "%s"', (value, mode, options, expected) => {
    expect(formatAmount(value, mode, options)).toBe(expected);
  });

  it('throws a RangeError for an unknown currency code', () => {
    expect(() => formatAmount(1, 'currency', { currency: 'XX' })).toThrow(RangeError);
  });

  it('throws a RangeError for a malformed locale', () => {
    expect(() => formatAmount(1, 1, { locale: 'not a locale!' })).toThrow(RangeError);
  });
});

describe('formatAmount with values that are not finite numbers', () => {
  it.each([
    ['NaN', NaN],
    ['Infinity', Infinity],
    ['-Infinity', -Infinity],
    ['a string from untyped code', '1000' as unknown as number],
    ['undefined from untyped code', undefined as unknown as number],
    ['null from untyped code', null as unknown as number],
  ])('prints the placeholder "—" for %s in every mode', (_label, value) => {
    expect(formatAmount(value, 1)).toBe('—');
    expect(formatAmount(value, 2)).toBe('—');
    // What callers compare against is what is printed.
    expect(formatAmount(value)).toBe(AMOUNT_PLACEHOLDER);
  });
});

describe('amountFormatter', () => {
  it('returns the same Intl.NumberFormat object for the same kind, locale and currency', () => {
    const first = amountFormatter('currency');
    expect(amountFormatter('currency')).toBe(first);
    expect(amountFormatter('currency', { locale: 'vi-VN', currency: 'VND' })).toBe(first);
    expect(amountFormatter('grouped')).toBe(amountFormatter('grouped', { locale: 'vi-VN' }));
  });

  it('keeps a separate formatter per kind, locale and currency', () => {
    const vnd = amountFormatter('currency');
    expect(amountFormatter('currency', { currency: 'USD' })).not.toBe(vnd);
    expect(amountFormatter('currency', { locale: 'en-US' })).not.toBe(vnd);
    expect(amountFormatter('grouped')).not.toBe(amountFormatter('van'));
  });

  it('ignores the currency for kinds that print no currency', () => {
    expect(amountFormatter('grouped', { currency: 'USD' })).toBe(amountFormatter('grouped'));
  });

  it('is the formatter formatAmount uses', () => {
    const formatter = amountFormatter('currency');
    expect(formatter.format(42)).toBe(formatAmount(42));
    expect(amountFormatter('currency')).toBe(formatter);
  });

  it('keeps working after more distinct keys than the cache holds', () => {
    const locales = [
      'vi-VN',
      'en-US',
      'de-DE',
      'fr-FR',
      'ja-JP',
      'en-GB',
      'es-ES',
      'it-IT',
      'nl-NL',
      'pt-BR',
    ];
    const currencies = ['VND', 'USD', 'EUR', 'JPY', 'GBP', 'CNY', 'KRW', 'THB'];
    for (const locale of locales)
      for (const currency of currencies) amountFormatter('currency', { locale, currency });
    expect(formatAmount(1_234_567.89)).toBe(`1.234.568${NBSP}₫`);
    expect(amountFormatter('currency')).toBe(amountFormatter('currency'));
  });
});
