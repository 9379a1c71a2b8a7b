import { describe, expect, it } from 'vitest';
import { SPEC_TABLE } from './realm-table.fixture.ts';
import { REALMS, realmRowName } from './realm-table.ts';

describe('REALMS', () => {
  it('holds exactly the rows of the docs/product-rules.md §3 table, in order', () => {
    expect(REALMS.map((row) => [row.upper, realmRowName(row), realmRowName(row, 'short')])).toEqual(
      SPEC_TABLE,
    );
  });

  it('has strictly increasing bounds', () => {
    for (let i = 1; i < REALMS.length; i += 1) {
      expect(REALMS[i]!.upper).toBeGreaterThan(REALMS[i - 1]!.upper);
    }
  });

  it('cannot be changed by a consumer', () => {
    expect(Object.isFrozen(REALMS)).toBe(true);
    expect(REALMS.every((row) => Object.isFrozen(row))).toBe(true);
  });

  it('gives Độ Kiếp no Đại Viên Mãn row', () => {
    expect(REALMS.filter((row) => row.major === 'Độ Kiếp').map((row) => row.stage)).toEqual([
      'Sơ',
      'Trung',
      'Hậu',
    ]);
  });
});

describe('realmRowName', () => {
  it.each(SPEC_TABLE)('prints the row up to %d as "%s" in the full reading', (upper, full) => {
    const row = REALMS.find((candidate) => candidate.upper === upper)!;
    expect(realmRowName(row, 'full')).toBe(full);
  });

  it.each(SPEC_TABLE)(
    'prints the row up to %d as "%s" / "%s" in the short reading',
    (upper, _full, short) => {
      const row = REALMS.find((candidate) => candidate.upper === upper)!;
      expect(realmRowName(row, 'short')).toBe(short);
    },
  );

  it('uses the full reading when none is given', () => {
    expect(realmRowName(REALMS[13]!)).toBe('Kim Đan Sơ Kỳ');
  });

  it.each([
    [{ upper: 1, major: 'Kim Đan', stage: 'Đại Viên Mãn' }, 'full', 'Kim Đan Đại Viên Mãn'],
    [{ upper: 1, major: 'Trúc Cơ', stage: 'Hậu' }, 'short', 'Trúc Cơ Hậu Kỳ'],
    [{ upper: 1, major: 'Độ Kiếp', stage: 'Trung' }, 'short', 'Độ Kiếp Trung Kỳ'],
    [{ upper: 1, major: 'Luyện Khí', stage: 'Tầng 4' }, 'short', 'Luyện Khí Tầng 4'],
    [{ upper: 1, major: 'Tiên Nhân', stage: null }, 'full', 'Tiên Nhân'],
  ] as const)(
    'prints a row built by hand, %o in the %s reading, as "%s"',
    (row, reading, expected) => {
      expect(realmRowName(row, reading)).toBe(expected);
    },
  );
});
