import { describe, expect, it } from 'vitest';
import {
  MAX_CID_LENGTH,
  lastChannelCookieValue,
  parseCid,
  readLastChannelCookie,
} from './last-channel.ts';

describe('the last channel cookie', () => {
  it('reads back the channel written for the same user', () => {
    const value = lastChannelCookieValue('lam', 'messaging:!members-a:b');
    expect(readLastChannelCookie(value, 'lam')).toEqual({
      type: 'messaging',
      id: '!members-a:b',
      cid: 'messaging:!members-a:b',
    });
  });

  it('gives nothing to another user', () => {
    expect(readLastChannelCookie(lastChannelCookieValue('lam', 'sect:luan-dao'), 'van')).toBeNull();
  });

  it('keeps a user id with the separator in it apart from the channel', () => {
    const value = lastChannelCookieValue('a|b', 'sect:luan-dao');
    expect(readLastChannelCookie(value, 'a|b')?.cid).toBe('sect:luan-dao');
    expect(readLastChannelCookie(value, 'a')).toBeNull();
  });

  it.each([
    '',
    'lam',
    'lam|',
    'lam|no-colon',
    'lam|%E0%A4%A',
    `lam|sect:${'x'.repeat(200)}`,
    'lam|a|b',
  ])('ignores a malformed value %j', (value) => {
    expect(readLastChannelCookie(value, 'lam')).toBeNull();
  });
});

describe('parseCid', () => {
  it('splits at the first colon only', () => {
    expect(parseCid('messaging:a:b')).toEqual({
      type: 'messaging',
      id: 'a:b',
      cid: 'messaging:a:b',
    });
    expect(parseCid(':abc')).toBeNull();
    expect(parseCid('messaging:')).toBeNull();
  });

  it('refuses a cid longer than the chat server accepts', () => {
    const longest = `t:${'x'.repeat(MAX_CID_LENGTH - 2)}`;
    expect(parseCid(longest)?.cid).toBe(longest);
    expect(parseCid(`${longest}x`)).toBeNull();
  });
});
