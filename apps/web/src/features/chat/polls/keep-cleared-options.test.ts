import { describe, expect, it } from 'vitest';
import { MAX_POLL_OPTIONS, keepClearedOptions, withoutOption } from './keep-cleared-options';

let next = 0;
const fresh = () => ({ id: `moi-${(next += 1)}`, text: '' });
const rows = (...texts: string[]) => texts.map((text, index) => ({ id: `o${index + 1}`, text }));
const texts = (options: { text: string }[]) => options.map((option) => option.text);

describe('poll options as the writer types', () => {
  it('keeps a cleared middle option in its place instead of removing it', () => {
    const after = keepClearedOptions(rows('Kim', 'Mộc', 'Thủy', ''), { index: 1, text: '' }, fresh);
    expect(texts(after)).toEqual(['Kim', '', 'Thủy', '']);
    expect(after[1]?.id).toBe('o2');
  });

  it('appends an empty option once the last one has text', () => {
    const after = keepClearedOptions(rows('Kim', ''), { index: 1, text: 'Mộc' }, fresh);
    expect(texts(after)).toEqual(['Kim', 'Mộc', '']);
  });

  it('appends none while the last option is still blank', () => {
    const after = keepClearedOptions(rows('Kim', ''), { index: 0, text: 'Kim Đan' }, fresh);
    expect(texts(after)).toEqual(['Kim Đan', '']);
  });

  it('keeps spaces typed between words', () => {
    const after = keepClearedOptions(rows('Kim', ''), { index: 0, text: 'Kim ' }, fresh);
    expect(texts(after)).toEqual(['Kim ', '']);
  });

  it('stops appending at 100 options', () => {
    const full = rows(
      ...Array.from({ length: MAX_POLL_OPTIONS }, (_, index) => `Lựa chọn ${index}`),
    );
    const after = keepClearedOptions(full, { index: 99, text: 'cuối' }, fresh);
    expect(after).toHaveLength(MAX_POLL_OPTIONS);
  });

  it('removing a row on purpose keeps a trailing empty option', () => {
    const options = rows('Kim', '', 'Thủy', '');
    expect(texts(keepClearedOptions(options, withoutOption(options, 1), fresh))).toEqual([
      'Kim',
      'Thủy',
      '',
    ]);
    const noTrailing = rows('Kim', 'Mộc');
    expect(texts(keepClearedOptions(noTrailing, withoutOption(noTrailing, 0), fresh))).toEqual([
      'Mộc',
      '',
    ]);
  });
});
