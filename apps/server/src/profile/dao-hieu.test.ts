import { describe, expect, it } from 'vitest';
import { parseDaoHieu } from './dao-hieu.ts';

describe('parseDaoHieu', () => {
  it.each([
    ['Lăng Phong', 'Lăng Phong'],
    ['  Tử Yên  ', 'Tử Yên'],
    ['Ab', 'Ab'],
    ['a'.repeat(32), 'a'.repeat(32)],
    // "Mặc" typed with combining marks is normalised to precomposed characters.
    ['Ma\u0323\u0306c Trần', 'Mặc Trần'],
    ['Vân 🌙', 'Vân 🌙'],
  ])('accepts %j as %j', (input, expected) => {
    expect(parseDaoHieu(input)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['only spaces', '    '],
    ['one character', 'A'],
    ['one character after trimming', '  A  '],
    ['33 characters', 'a'.repeat(33)],
    ['a newline', 'Lăng\nPhong'],
    ['a NUL character', 'Lăng\u0000Phong'],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an array', ['Lăng Phong']],
  ])('refuses %s', (_label, input) => {
    expect(parseDaoHieu(input)).toBeUndefined();
  });

  it('counts a Vietnamese letter with combining marks as one character', () => {
    // 16 × "ễ" written as e + U+0302 + U+0303 is 48 code units but 16 characters once normalised.
    expect(parseDaoHieu('e\u0302\u0303'.repeat(16))).toBe('ễ'.repeat(16));
  });
});
