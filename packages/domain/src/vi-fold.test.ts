import { describe, expect, it } from 'vitest';
import { foldVietnamese, foldedWords } from './vi-fold.ts';

describe('foldVietnamese', () => {
  it.each([
    ['Đạo Hữu', 'dao huu'],
    ['ĐẠO HỮU', 'dao huu'],
    ['đạo hữu', 'dao huu'],
    ['Tông môn', 'tong mon'],
    ['Người tu tiên', 'nguoi tu tien'],
    ['Kim Đan kỳ', 'kim dan ky'],
    ['abc 123 😀', 'abc 123 😀'],
    ['', ''],
  ])('folds %j to %j', (input, folded) => {
    expect(foldVietnamese(input)).toBe(folded);
  });

  it('folds the decomposed spelling of a word like its precomposed one', () => {
    expect(foldVietnamese('Hữu'.normalize('NFD'))).toBe(foldVietnamese('Hữu'.normalize('NFC')));
  });
});

describe('foldedWords', () => {
  it('splits on spaces and punctuation and folds each word', () => {
    expect(foldedWords('Đạo-hữu, chào!  Tông môn.')).toEqual(['dao', 'huu', 'chao', 'tong', 'mon']);
  });

  it('has no words for text of only punctuation', () => {
    expect(foldedWords(' .,!? ')).toEqual([]);
  });
});
