import { describe, expect, it } from 'vitest';
import { balanceRangeMessage, parseWholeAmount, tuViRangeMessage } from './parse-amount';

describe('parseWholeAmount', () => {
  it.each([
    ['0', 0],
    ['123456', 123_456],
    [' 42 ', 42],
    ['1.000.000', 1_000_000],
    ['9007199254740991', Number.MAX_SAFE_INTEGER],
  ])('reads %j as %i', (text, value) => {
    expect(parseWholeAmount(text)).toBe(value);
  });

  it.each([
    '',
    '-1',
    '1,5',
    '1.5',
    '12.34',
    'abc',
    '1e3',
    '9007199254740992',
    '99999999999999999999',
  ])('refuses %j', (text) => {
    expect(parseWholeAmount(text)).toBeNull();
  });

  it('states the allowed range in vi-VN digits', () => {
    expect(tuViRangeMessage()).toBe('Tu vi phải là số nguyên từ 0, tối đa 9 triệu tỷ.');
    expect(balanceRangeMessage()).toBe('Số dư phải là số nguyên từ 0, tối đa 9 triệu tỷ.');
  });
});
