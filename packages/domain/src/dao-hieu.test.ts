import { describe, expect, it } from 'vitest';
import {
  DAO_HIEU_CHARACTERS_MESSAGE,
  DAO_HIEU_LENGTH_MESSAGE,
  checkDaoHieu,
  parseDaoHieu,
} from './dao-hieu.ts';

describe('parseDaoHieu', () => {
  it.each([
    ['Lăng Phong', 'Lăng Phong'],
    ['  Tử Yên  ', 'Tử Yên'],
    ['Ab', 'Ab'],
    ['a'.repeat(32), 'a'.repeat(32)],
    // "Mặc" typed with combining marks is normalised to precomposed characters.
    ['Ma\u0323\u0306c Trần', 'Mặc Trần'],
    ['Vân 🌙', 'Vân 🌙'],
    // The zero-width joiner holds emoji sequences together.
    ['Lập trình 👩\u200D💻', 'Lập trình 👩\u200D💻'],
  ])('accepts %j as %j', (input, expected) => {
    expect(parseDaoHieu(input)).toBe(expected);
  });

  it.each([
    ['empty', ''],
    ['only spaces', '    '],
    ['one character', 'A'],
    ['one character after trimming', '  A  '],
    ['33 characters', 'a'.repeat(33)],
    ['10,000 characters', 'Đ'.repeat(10_000)],
    ['a newline', 'Lăng\nPhong'],
    ['a NUL character', 'Lăng\u0000Phong'],
    ['a right-to-left override', 'Lăng\u202EgnohP'],
    ['a left-to-right mark', 'Lăng\u200EPhong'],
    ['a right-to-left isolate', 'Lăng\u2067Phong\u2069'],
    ['a zero-width space', 'Lăng\u200BPhong'],
    ['a byte-order mark inside', 'Lăng\uFEFFPhong'],
    ['a line separator', 'Lăng\u2028Phong'],
    ['a lone surrogate', 'Lăng\uD800Phong'],
    ['a private-use character', 'Lăng\uE000Phong'],
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

describe('checkDaoHieu', () => {
  it('says whether the length or the characters are wrong', () => {
    expect(checkDaoHieu('A')).toEqual({
      ok: false,
      problem: 'length',
      message: DAO_HIEU_LENGTH_MESSAGE,
    });
    expect(checkDaoHieu('Lăng\u202EPhong')).toEqual({
      ok: false,
      problem: 'characters',
      message: DAO_HIEU_CHARACTERS_MESSAGE,
    });
    expect(checkDaoHieu(' Lăng Phong ')).toEqual({ ok: true, name: 'Lăng Phong' });
  });
});
