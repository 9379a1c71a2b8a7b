import { describe, expect, it } from 'vitest';
import { parseCooldownSeconds } from '../components/moderation/slow-mode-panel';
import {
  BAN_DURATION_OPTIONS,
  distinctBy,
  isValidCid,
  parseBlocklistWords,
} from './moderation-format';
import { t } from '@/i18n';

describe('parseBlocklistWords', () => {
  it('reads one word per line, dropping blanks and repeats whatever their case', () => {
    expect(parseBlocklistWords('ngu\n\n  khốn  \nNGU\r\nlừa đảo\n')).toEqual([
      'ngu',
      'khốn',
      'lừa đảo',
    ]);
  });
});

describe('isValidCid', () => {
  it('accepts type:id and refuses anything else', () => {
    expect(isValidCid('messaging:nhom-tu-luyen')).toBe(true);
    expect(isValidCid('livestream:quang-truong')).toBe(true);
    expect(isValidCid('quang-truong')).toBe(false);
    expect(isValidCid('messaging:a b')).toBe(false);
    expect(isValidCid(':id')).toBe(false);
  });
});

describe('parseCooldownSeconds', () => {
  it('accepts whole seconds from 1 to 120 only', () => {
    expect(parseCooldownSeconds('30')).toBe(30);
    expect(parseCooldownSeconds(' 120 ')).toBe(120);
    for (const bad of ['0', '121', '1.5', '-3', 'abc', ''])
      expect(parseCooldownSeconds(bad)).toBe(null);
  });
});

describe('BAN_DURATION_OPTIONS', () => {
  it('offers 1 giờ, 1 ngày, 7 ngày and vĩnh viễn, in minutes', () => {
    expect(BAN_DURATION_OPTIONS.map(({ label, minutes }) => [t(label), minutes])).toEqual([
      ['1 giờ', 60],
      ['1 ngày', 1440],
      ['7 ngày', 10_080],
      ['Vĩnh viễn', null],
    ]);
  });
});

describe('distinctBy', () => {
  it('keeps the first of the items that share a key, in order, when a page repeats what the one before showed', () => {
    const pages = [
      [{ id: 'a' }, { id: 'b' }],
      [{ id: 'b' }, { id: 'c' }],
    ];
    expect(distinctBy(pages.flat(), (item) => item.id)).toEqual([
      { id: 'a' },
      { id: 'b' },
      { id: 'c' },
    ]);
  });
});
