import { describe, expect, it } from 'vitest';
import { foldTranslation, foldVietnamese, foldedWords, searchText } from './vi-fold.ts';

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

describe('searchText', () => {
  it('stores the folded words between single spaces, padded at both ends', () => {
    expect(searchText('  Đạo-hữu, CHÀO!')).toBe(' dao huu chao ');
  });

  it('is empty for a text without words', () => {
    expect(searchText('😀 !!')).toBe('');
  });
});

describe('foldTranslation', () => {
  const { from, to } = foldTranslation();
  const translate = (text: string) =>
    [...text]
      .map((char) => {
        const index = [...from].indexOf(char);
        if (index < 0) return char;
        return index < to.length ? to[index] : '';
      })
      .join('')
      .toLowerCase();

  it.each(['Đạo Hữu', 'ĐẠO HỮU', 'Người tu tiên', 'Kim Đan kỳ', 'Hữu'.normalize('NFD'), 'Ỷ Thiên'])(
    'translates %j the way foldVietnamese folds it',
    (text) => {
      expect(translate(text)).toBe(foldVietnamese(text));
    },
  );

  it('maps every Vietnamese letter with a mark to a single ASCII letter', () => {
    const letters = 'àáảãạăằắẳẵặâầấẩẫậèéẻẽẹêềếểễệìíỉĩịòóỏõọôồốổỗộơờớởỡợùúủũụưừứửữựỳýỷỹỵđ';
    for (const letter of [...letters, ...letters.toUpperCase()])
      expect(translate(letter)).toMatch(/^[a-z]$/);
  });
});
