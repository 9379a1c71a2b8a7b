import { describe, expect, it } from 'vitest';
import { highlightSegments } from './highlight';

/** The text with each marked run in [brackets], which makes a table of cases readable. */
function marked(text: string, query: string): string {
  return highlightSegments(text, query)
    .map((segment) => (segment.match ? `[${segment.text}]` : segment.text))
    .join('');
}

describe('highlightSegments', () => {
  it.each([
    [
      'accents typed without diacritics',
      'Tông môn Thanh Vân',
      'tong mon',
      '[Tông] [môn] Thanh Vân',
    ],
    ['accents typed with diacritics', 'Tông môn Thanh Vân', 'Tông môn', '[Tông] [môn] Thanh Vân'],
    ['đ typed as d', 'Đạo hữu đến rồi', 'dao den', '[Đạo] hữu [đến] rồi'],
    ['d typed as đ', 'Dao kiếm', 'đao', '[Dao] kiếm'],
    ['any case', 'ĐẠO HỮU', 'đạo hữu', '[ĐẠO] [HỮU]'],
    ['a word prefix', 'Luyện đan thuật', 'luy th', '[Luy]ện đan [th]uật'],
    ['several occurrences', 'kiếm và kiếm pháp', 'kiem', '[kiếm] và [kiếm] pháp'],
    ['no match', 'Tông môn', 'kiếm', 'Tông môn'],
    ['a match inside a word only', 'Hàmon', 'mon', 'Hàmon'],
    ['an empty query', 'Tông môn', '   ', 'Tông môn'],
    ['overlapping words merge into one mark', 'Tông môn', 'to tong', '[Tông] môn'],
    ['emoji around the words', '🔥Tông môn 🐉 đại hội', 'tong dai', '🔥[Tông] môn 🐉 [đại] hội'],
    ['punctuation in the query', 'Tông-môn!', 'tông, môn?', '[Tông]-[môn]!'],
    ['digits', 'Tầng 9 luyện khí', '9', 'Tầng [9] luyện khí'],
  ])('marks %s', (_case, text, query, expected) => {
    expect(marked(text, query)).toBe(expected);
  });

  it('keeps combining marks of NFD text inside the mark', () => {
    const text = 'Tông môn'.normalize('NFD');
    const segments = highlightSegments(text, 'to');
    expect(segments[0]).toEqual({ text: 'Tô'.normalize('NFD'), match: true });
    expect(segments.map((segment) => segment.text).join('')).toBe(text);
  });

  it('gives back the whole text, unchanged, across its segments', () => {
    const text = '<b>Tông</b> & "môn" 🐉';
    const segments = highlightSegments(text, 'tong mon b');
    expect(segments.map((segment) => segment.text).join('')).toBe(text);
    expect(segments.filter((segment) => segment.match).map((segment) => segment.text)).toEqual([
      'b',
      'Tông',
      'b',
      'môn',
    ]);
  });

  it('returns nothing for an empty text', () => {
    expect(highlightSegments('', 'tong')).toEqual([]);
  });
});
