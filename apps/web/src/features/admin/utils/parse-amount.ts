import { formatLargeCount } from '@daohuu/domain';

const MAX = Number.MAX_SAFE_INTEGER;

// The limit in words ("9 triệu tỷ"): sixteen grouped digits mean nothing to the admin reading them.
export const TU_VI_RANGE_MESSAGE = `Tu vi phải là số nguyên từ 0, tối đa ${formatLargeCount(MAX)}.`;
export const BALANCE_RANGE_MESSAGE = `Số dư phải là số nguyên từ 0, tối đa ${formatLargeCount(MAX)}.`;

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
