import { describe, expect, it } from 'vitest';
import { startsShortcode } from './configure-emoji-shortcodes';

describe('when a shortcode starts', () => {
  it.each([
    [':', 1],
    [':smi', 4],
    ['chào :smi', 9],
    ['dòng một\n:', 10],
  ])('a colon starting a word before the caret counts (%j)', (text, caret) => {
    expect(startsShortcode(text, caret)).toBe(true);
  });

  it.each([
    ['10:30', 5],
    ['http://a.vn', 11],
    ['chào', 4],
    [':smi xong', 9],
  ])('a colon inside a word, or a finished word, does not (%j)', (text, caret) => {
    expect(startsShortcode(text, caret)).toBe(false);
  });

  it('looks only at the text before the caret', () => {
    expect(startsShortcode(':smi rồi', 4)).toBe(true);
  });
});
