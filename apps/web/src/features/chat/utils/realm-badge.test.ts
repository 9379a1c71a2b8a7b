import { describe, expect, it } from 'vitest';
import { realmBadgeFor } from './realm-badge';

describe('realmBadgeFor', () => {
  it.each([
    [0, 'Luyện Khí Tầng 1', 'Luyện Khí'],
    [2_300, 'Luyện Khí Tầng 8', 'Luyện Khí'],
    [48_000, 'Trúc Cơ Đại Viên Mãn', 'Trúc Cơ'],
    [123_456, 'Kim Đan Trung Kỳ', 'Kim Đan'],
    [42_000_000, 'Hóa Thần Đại Viên Mãn', 'Hóa Thần'],
    [500_000_000_001, 'Tiên Nhân', 'Tiên Nhân'],
  ])('labels a user with tu_vi %i as %s', (tuVi, label, major) => {
    expect(realmBadgeFor(tuVi)).toEqual({ label, major });
  });

  it('uses the short reading when asked, for tight headers', () => {
    expect(realmBadgeFor(123_456, 'short')?.label).toBe('Kim Đan Trung');
  });

  it('shows "Tu vi không hợp lệ" for a negative or NaN tu_vi rather than hiding it', () => {
    expect(realmBadgeFor(-5)).toEqual({ label: 'Tu vi không hợp lệ', major: null });
    expect(realmBadgeFor(Number.NaN)).toEqual({ label: 'Tu vi không hợp lệ', major: null });
  });

  it('shows no badge for a user without a tu_vi field', () => {
    expect(realmBadgeFor(undefined)).toBeNull();
    expect(realmBadgeFor(null)).toBeNull();
  });

  it('shows no badge when tu_vi is not a number (custom data the product did not write)', () => {
    expect(realmBadgeFor('1000')).toBeNull();
    expect(realmBadgeFor({ value: 1 })).toBeNull();
  });
});
