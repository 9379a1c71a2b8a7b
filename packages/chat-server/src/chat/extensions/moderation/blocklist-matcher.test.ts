import { describe, expect, it } from 'vitest';
import { compileBlocklist } from './blocklist-matcher.ts';

const LIST = ['đm', 'vãi', 'con chó', 'cream', 'x'];

describe('the block list matcher', () => {
  const matcher = compileBlocklist(LIST);

  it.each([
    ['đm', 'dm'],
    ['ĐM mày', 'dm'],
    ['dm', 'dm'],
    ['d.m', 'dm'],
    ['Đ . M', 'dm'],
    ['đ-m luôn', 'dm'],
    ['thật là d m', 'dm'],
    ['VÃI thật', 'vai'],
    ['vai', 'vai'],
    ['Con   Chó!', 'con cho'],
    ['con.chó', 'con cho'],
    ['ice cream, please', 'cream'],
    ['cookie-cream', 'cream'],
    ['c.r.e.a.m', 'cream'],
    ['một x', 'x'],
    // Folding is the rule: "vài" (a few) reads as "vai" like "vãi"; a list that needs both keeps neither.
    ['vài', 'vai'],
  ])('catches %j as %j', (text, word) => {
    expect(matcher.match(text)).toBe(word);
  });

  it.each([
    'dam',
    'Đạm bạc',
    'đâm',
    'creamcheese',
    'I did not enjoy Scream',
    'con chuột chó',
    'dma',
    'xin chào',
    '',
    '....',
  ])('lets %j through', (text) => {
    expect(matcher.match(text)).toBeUndefined();
  });

  it('matches nothing with an empty list or a list of separators only', () => {
    expect(compileBlocklist([]).match('đm')).toBeUndefined();
    expect(compileBlocklist(['...', ' ']).match('... đm')).toBeUndefined();
  });

  it('matches the same with a thousand words as with a few', () => {
    const words = Array.from({ length: 1000 }, (_, index) => `tu${index}`);
    const big = compileBlocklist([...words, ...LIST]);
    // The shortest listed word a run of letters spells is the one reported.
    expect(big.match('t.u.9.9.9')).toBe('tu9');
    expect(big.match('ồ tu999 nhé')).toBe('tu999');
    expect(big.match('tu1000')).toBeUndefined();
    expect(big.match('Đ.M')).toBe('dm');
  });
});
