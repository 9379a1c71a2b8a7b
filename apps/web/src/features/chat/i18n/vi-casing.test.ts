import { describe, expect, it } from 'vitest';
import { viComposerTexts, viPeopleTexts, viSearchTexts, viTranslations } from './index';

/**
 * Vietnamese writes buttons, menu items and messages in sentence case ("Xóa tin nhắn", "Kết thúc bình chọn"), never
 * English Title Case. Only these may be capitalised inside a text: names of things and keys.
 */
const PROPER_NOUNS = new Set(['AI', 'Enter', 'GIF', 'Giphy', 'Hồ', 'Space', 'Tab']);

/**
 * Pieces composed into a longer sentence (an upload's reason, an attachment's kind, a language after "tiếng"), so
 * they start in lower case.
 */
const FRAGMENT_KEYS = new Set([
  'aria/audio',
  'aria/file',
  'aria/image',
  'aria/video',
  'aria/voice message',
  'live',
  'network error',
  'size limit',
  'unknown error',
  'unsupported file type',
]);

const catalogue: [string, string][] = Object.entries({
  ...viTranslations,
  ...viPeopleTexts,
  ...viSearchTexts,
  ...viComposerTexts,
}).filter(([key]) => !key.startsWith('language/'));

/** The words of a text without its placeholders; the first one is the first that starts with a letter. */
function words(text: string): string[] {
  const all = text
    .replace(/\{\{.*?\}\}/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
  const first = all.findIndex((word) => /^\p{L}/u.test(word));
  return first < 0 ? [] : all.slice(first);
}

/** Words capitalised where a Vietnamese sentence would not: not first, not after . ! ? : and not quoted. */
function titleCaseWords(text: string): string[] {
  const list = words(text);
  return list.filter((word, index) => {
    if (index === 0 || !/^\p{Lu}/u.test(word)) return false;
    if (/[.!?:]$/u.test(list[index - 1] ?? '')) return false;
    return !PROPER_NOUNS.has(word.replace(/[^\p{L}]/gu, ''));
  });
}

/**
 * A text that should open with a capital but does not. Emoji and symbols before the first word are skipped; a text
 * opening with a placeholder, a number or a bracket ("[@tên đạo hữu]") has no first word to capitalise.
 */
function opensInLowerCase(text: string): boolean {
  const opening = text.trimStart().replace(/^[^\p{L}\p{N}[{(]+/u, '');
  return /^\p{Ll}/u.test(opening);
}

describe('the casing of the Vietnamese chat texts', () => {
  it('capitalises no word inside a text except names listed as proper nouns', () => {
    const offenders = catalogue.filter(([, text]) => titleCaseWords(text).length > 0);
    expect(offenders).toEqual([]);
  });

  it('opens every button, menu item and message with a capital', () => {
    const offenders = catalogue.filter(
      ([key, text]) => !FRAGMENT_KEYS.has(key) && opensInLowerCase(text),
    );
    expect(offenders).toEqual([]);
  });

  it('flags English Title Case and lower-case openings', () => {
    expect(titleCaseWords('Xóa Tin Nhắn')).toEqual(['Tin', 'Nhắn']);
    expect(titleCaseWords('Kết thúc bình chọn')).toEqual([]);
    expect(titleCaseWords('Lỗi mạng. Thử lại sau')).toEqual([]);
    expect(titleCaseWords('Dùng thao tác “Gửi”')).toEqual([]);
    expect(opensInLowerCase('kênh')).toBe(true);
    expect(opensInLowerCase('🏙 Tệp đính kèm…')).toBe(false);
  });

  it('names muting a person and muting a channel differently', () => {
    expect(viTranslations['Mute user']).toBe('Tắt thông báo người này');
    expect(viTranslations.Mute).toBe('Tắt thông báo kênh');
    expect(viTranslations['Mute user']).not.toBe(viTranslations.Mute);
  });

  it('says what each attach and share button does', () => {
    expect(viTranslations.File).toBe('Đính kèm tệp');
    expect(viTranslations.Attach).toBe('Đính kèm vị trí');
    expect(viTranslations.Share).toBe('Chia sẻ vị trí');
  });
});
