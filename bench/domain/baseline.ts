// The naive implementations the domain package is measured against: what one writes without thinking about speed.
import { INVALID_TU_VI, REALMS, realmRowName } from '@daohuu/domain';

/** Linear scan of the table, returning the row index (-1 when invalid). */
export function linearRealmIndexOf(tuVi: unknown): number {
  if (typeof tuVi !== 'number' || !(tuVi >= 0)) return -1;
  for (let i = 0; i < REALMS.length; i += 1) {
    if (tuVi <= (REALMS[i] as (typeof REALMS)[number]).upper) return i;
  }
  return -1;
}

/** Linear scan, then the name built on every call. */
export function naiveRealmName(tuVi: unknown): string {
  const index = linearRealmIndexOf(tuVi);
  return index < 0 ? INVALID_TU_VI : realmRowName(REALMS[index] as (typeof REALMS)[number]);
}

/** A new Intl.NumberFormat on every call, for each of the three modes of formatAmount. */
export function naiveFormatAmount(value: number, mode: 1 | 2 | 'currency'): string {
  if (!Number.isFinite(value)) return '—';
  const sign = { signDisplay: 'negative' } as const;
  if (mode === 1) return new Intl.NumberFormat('vi-VN', sign).format(value);
  if (mode === 2) {
    if (Math.round(Math.abs(value) * 1_000) < 10_000_000) {
      return new Intl.NumberFormat('vi-VN', { ...sign, useGrouping: false }).format(value);
    }
    const van = new Intl.NumberFormat('vi-VN', {
      ...sign,
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
    });
    return `${van.format(value / 10_000)} vạn`;
  }
  return new Intl.NumberFormat('vi-VN', { ...sign, style: 'currency', currency: 'VND' }).format(
    value,
  );
}
