import type { Language } from './language';
import { formatMoment } from '@/lib/format-moment';

/**
 * Dates follow the language (vi-VN or en-US, as the chat SDK's English dates), on a 24-hour clock in both. Amounts of tu vi and VND do not:
 * they keep the product's vi-VN rules in both languages (packages/domain formatAmount, formatTuVi).
 */
export const DATE_LOCALES: Record<Language, string> = { vi: 'vi-VN', en: 'en-US' };

const cache = new Map<string, Intl.DateTimeFormat>();

export function dateFormat(
  language: Language,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const cacheKey = `${language}|${JSON.stringify(options)}`;
  let format = cache.get(cacheKey);
  if (!format) {
    // One clock in both languages: English times are 24-hour too, as the chat's message times are.
    const clock = options.timeStyle || options.hour ? { hourCycle: 'h23' as const } : {};
    format = new Intl.DateTimeFormat(DATE_LOCALES[language], { ...options, ...clock });
    cache.set(cacheKey, format);
  }
  return format;
}

/** A date as the language writes it, or "—" for a value that is not a date. */
export function formatDate(
  value: string | number | Date,
  language: Language,
  options: Intl.DateTimeFormatOptions = { dateStyle: 'long' },
): string {
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? '—' : dateFormat(language, options).format(date);
}

/** A moment to the minute: "14:30 25/11/2026" as Vietnamese writes it (src/lib/format-moment.ts), English its own way. */
export function formatMomentIn(value: string | Date, language: Language): string {
  if (language === 'vi') return formatMoment(value);
  const date = value instanceof Date ? value : new Date(value);
  if (Number.isNaN(date.getTime())) return '';
  return dateFormat('en', { dateStyle: 'medium', timeStyle: 'short' }).format(date);
}
