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
