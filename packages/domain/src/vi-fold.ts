/**
 * Vietnamese text as people type it when searching or dodging a word filter: without diacritics, with "d" for "đ",
 * in lower case. "Đạo Hữu", "ĐẠO HỮU" and "dao huu" all fold to "dao huu". Search (messages, users, channels), the
 * highlighting of matches and blocklists use this one rule so they agree on what matches.
 */
export function foldVietnamese(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .replace(/[đĐ]/g, 'd')
    .toLowerCase()
    .normalize('NFC');
}

/** The words of a folded text: runs of letters and digits, everything else a separator. */
export function foldedWords(text: string): string[] {
  return foldVietnamese(text).match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * The folded form a search index stores for a text: its folded words joined by single spaces, with a space before
 * and after (empty text stays empty). The padding lets a plain LIKE test whole words (`% dao %`) and word prefixes
 * (`% hu%`) on databases without a full-text tokenizer that agrees with `foldedWords`.
 */
export function searchText(text: string): string {
  const words = foldedWords(text);
  return words.length === 0 ? '' : ` ${words.join(' ')} `;
}

/**
 * Characters that `foldVietnamese` turns into one ASCII letter, as the two arguments of SQL's
 * `translate(text, from, to)`: with `lower()` around it, the database folds a column the way `foldVietnamese` folds a
 * string (for Vietnamese and the other Latin letters; combining marks in `from` past the end of `to` are deleted).
 */
export function foldTranslation(): { from: string; to: string } {
  let from = '';
  let to = '';
  const ranges: [number, number][] = [
    [0x00c0, 0x024f],
    [0x1e00, 0x1eff],
  ];
  for (const [start, end] of ranges) {
    for (let code = start; code <= end; code++) {
      const char = String.fromCodePoint(code);
      const folded = foldVietnamese(char);
      if (folded.length === 1 && folded !== char && folded < '\u0080') {
        from += char;
        to += folded;
      }
    }
  }
  for (let code = 0x0300; code <= 0x036f; code++) from += String.fromCodePoint(code);
  return { from, to };
}
