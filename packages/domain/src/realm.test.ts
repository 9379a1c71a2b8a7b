import { describe, expect, it } from 'vitest';
import { INVALID_TU_VI, realmIndexOf, realmName, realmOf } from './realm.ts';
import { SPEC_TABLE } from './realm-table.fixture.ts';
import { REALMS } from './realm-table.ts';

type Case = readonly [value: number, full: string, short: string];

// Every bound maps to its own row; bound + 0.5 and bound + 1 already belong to the next row.
const boundaryCases: Case[] = SPEC_TABLE.flatMap(([upper, full, short], i): Case[] => {
  const next = SPEC_TABLE[i + 1];
  if (next === undefined) return [];
  return [
    [upper, full, short],
    [upper + 0.5, next[1], next[2]],
    [upper + 1, next[1], next[2]],
  ];
});

const edgeCases: Case[] = [
  [0, 'Luyện Khí Tầng 1', 'Luyện Khí Tầng 1'],
  [-0, 'Luyện Khí Tầng 1', 'Luyện Khí Tầng 1'],
  [0.0001, 'Luyện Khí Tầng 1', 'Luyện Khí Tầng 1'],
  [99.999, 'Luyện Khí Tầng 1', 'Luyện Khí Tầng 1'],
  [75_000, 'Kim Đan Sơ Kỳ', 'Kim Đan Sơ'],
  [499_999_999_999.5, 'Độ Kiếp Hậu Kỳ', 'Độ Kiếp Hậu Kỳ'],
  [1e12, 'Tiên Nhân', 'Tiên Nhân'],
  [Number.MAX_SAFE_INTEGER, 'Tiên Nhân', 'Tiên Nhân'],
  [Number.MAX_VALUE, 'Tiên Nhân', 'Tiên Nhân'],
  [Infinity, 'Tiên Nhân', 'Tiên Nhân'],
];

const invalidInputs: ReadonlyArray<readonly [label: string, value: unknown]> = [
  ['-1', -1],
  ['-0.0001', -0.0001],
  ['-Infinity', -Infinity],
  ['NaN', NaN],
  ['the string "100"', '100'],
  ['the empty string', ''],
  ['null', null],
  ['undefined', undefined],
  ['a bigint', 100n],
  ['true', true],
  ['an object', { tuVi: 100 }],
  ['an object with valueOf', { valueOf: () => 100 }],
  ['an array', [100]],
  ['a boxed number', Object(100)],
];

describe('realmName', () => {
  it.each([...boundaryCases, ...edgeCases])(
    'names tu vi %d "%s" in the full reading',
    (value, full) => {
      expect(realmName(value)).toBe(full);
      expect(realmName(value, { reading: 'full' })).toBe(full);
    },
  );

  it.each([...boundaryCases, ...edgeCases])(
    'names tu vi %d "%s" / "%s" in the short reading',
    (value, _full, short) => {
      expect(realmName(value, { reading: 'short' })).toBe(short);
    },
  );

  it.each(invalidInputs)('answers "Tu vi không hợp lệ" for %s', (_label, value) => {
    expect(realmName(value)).toBe('Tu vi không hợp lệ');
    expect(realmName(value, { reading: 'short' })).toBe('Tu vi không hợp lệ');
  });

  it('falls back to the full reading for an unknown reading passed from untyped code', () => {
    expect(realmName(150_000, { reading: 'medium' as never })).toBe('Kim Đan Trung Kỳ');
  });
});

describe('realmOf', () => {
  it.each(invalidInputs)('returns the invalid marker for %s', (_label, value) => {
    expect(realmOf(value)).toEqual({ valid: false, name: INVALID_TU_VI });
  });

  it.each([...boundaryCases, ...edgeCases])(
    'agrees with realmName for tu vi %d',
    (value, full, short) => {
      expect(realmOf(value).name).toBe(full);
      expect(realmOf(value, { reading: 'short' }).name).toBe(short);
    },
  );

  it.each([
    [
      0,
      {
        index: 0,
        lower: 0,
        upper: 100,
        progress: 0,
        next: { name: 'Luyện Khí Tầng 2', index: 1, lower: 100 },
      },
    ],
    [
      50,
      {
        index: 0,
        lower: 0,
        upper: 100,
        progress: 0.5,
        next: { name: 'Luyện Khí Tầng 2', index: 1, lower: 100 },
      },
    ],
    [
      100,
      {
        index: 0,
        lower: 0,
        upper: 100,
        progress: 1,
        next: { name: 'Luyện Khí Tầng 2', index: 1, lower: 100 },
      },
    ],
    [
      175,
      {
        index: 1,
        lower: 100,
        upper: 250,
        progress: 0.5,
        next: { name: 'Luyện Khí Tầng 3', index: 2, lower: 250 },
      },
    ],
    [
      4_000,
      {
        index: 8,
        lower: 3_000,
        upper: 4_000,
        progress: 1,
        next: { name: 'Trúc Cơ Sơ Kỳ', index: 9, lower: 4_000 },
      },
    ],
    [
      7_000,
      {
        index: 9,
        lower: 4_000,
        upper: 10_000,
        progress: 0.5,
        next: { name: 'Trúc Cơ Trung Kỳ', index: 10, lower: 10_000 },
      },
    ],
    [
      162_500,
      {
        index: 14,
        lower: 100_000,
        upper: 200_000,
        progress: 0.625,
        next: { name: 'Kim Đan Hậu Kỳ', index: 15, lower: 200_000 },
      },
    ],
    [
      500_000_000_000,
      {
        index: 39,
        lower: 200_000_000_000,
        upper: 500_000_000_000,
        progress: 1,
        next: { name: 'Tiên Nhân', index: 40, lower: 500_000_000_000 },
      },
    ],
    [
      500_000_000_001,
      { index: 40, lower: 500_000_000_000, upper: Infinity, progress: 1, next: null },
    ],
    [Infinity, { index: 40, lower: 500_000_000_000, upper: Infinity, progress: 1, next: null }],
  ])('places tu vi %d inside its row and points to the next one', (value, expected) => {
    expect(realmOf(value)).toMatchObject({ valid: true, ...expected });
  });

  it('reports the major realm and the bare stage word', () => {
    expect(realmOf(150_000)).toMatchObject({ major: 'Kim Đan', stage: 'Trung' });
    expect(realmOf(42)).toMatchObject({ major: 'Luyện Khí', stage: 'Tầng 1' });
    expect(realmOf(1e13)).toMatchObject({ major: 'Tiên Nhân', stage: null });
  });

  it('names the next realm in the requested reading', () => {
    expect(realmOf(75_000, { reading: 'short' })).toMatchObject({
      name: 'Kim Đan Sơ',
      next: { name: 'Kim Đan Trung', index: 14, lower: 100_000 },
    });
    expect(realmOf(40_000, { reading: 'short' })).toMatchObject({
      name: 'Trúc Cơ Đại Viên Mãn',
      next: { name: 'Kim Đan Sơ', index: 13, lower: 50_000 },
    });
  });

  it('keeps progress within 0..1 and growing across every row', () => {
    for (const [i, row] of REALMS.entries()) {
      if (row.upper === Infinity) continue;
      const lower = i === 0 ? 0 : REALMS[i - 1]!.upper;
      const quarter = realmOf(lower + (row.upper - lower) / 4);
      const half = realmOf(lower + (row.upper - lower) / 2);
      expect(quarter.valid && quarter.progress).toBeCloseTo(0.25, 12);
      expect(half.valid && half.progress).toBeCloseTo(0.5, 12);
    }
  });
});

describe('realmIndexOf', () => {
  function linearIndexOf(value: number): number {
    return REALMS.findIndex((row) => value <= row.upper);
  }

  it('finds the same row as a linear scan for bounds, their neighbours and spread-out values', () => {
    const values = REALMS.flatMap((row) => [
      row.upper,
      row.upper - 1,
      row.upper - 0.5,
      row.upper + 0.5,
      row.upper + 1,
    ]);
    // A fixed multiplicative sequence spreads values over every order of magnitude without randomness.
    for (let value = 0.37; value < 1e13; value *= 1.173) values.push(value);
    for (const value of values.filter((candidate) => candidate >= 0)) {
      expect(realmIndexOf(value), `tu vi ${value}`).toBe(linearIndexOf(value));
    }
  });

  it('returns -1 for invalid input', () => {
    expect(realmIndexOf(-1)).toBe(-1);
    expect(realmIndexOf(NaN)).toBe(-1);
    expect(realmIndexOf('7')).toBe(-1);
  });
});
