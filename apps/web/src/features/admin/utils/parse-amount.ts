import { formatLargeCount } from '@daohuu/domain';
import { t } from '@/i18n';

const MAX = Number.MAX_SAFE_INTEGER;

// The limit in words (vi-VN's "9 triệu tỷ", an amount, so in both languages): sixteen grouped digits mean nothing
// to the admin reading them.
export function tuViRangeMessage(): string {
  return t('admin.users.tuViRange', { max: formatLargeCount(MAX) });
}

export function balanceRangeMessage(): string {
  return t('admin.users.balanceRange', { max: formatLargeCount(MAX) });
}

/**
 * Reads an admin-typed integer in 0..MAX_SAFE_INTEGER. Spaces and vi-VN group dots ("1.000.000") are
 * accepted because that is how the table prints numbers; anything else (signs, decimals, letters) is refused.
 */
export function parseWholeAmount(text: string): number | null {
  const compact = text.replace(/\s/g, '');
  const digits = /^\d{1,3}(\.\d{3})+$/.test(compact) ? compact.replace(/\./g, '') : compact;
  if (!/^\d+$/.test(digits)) return null;
  const value = Number(digits);
  return Number.isSafeInteger(value) && value <= MAX ? value : null;
}
