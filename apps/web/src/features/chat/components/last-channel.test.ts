import { afterEach, describe, expect, it } from 'vitest';
import {
  LAST_CHANNEL_KEY_PREFIX,
  defaultChannel,
  forgetLastChannel,
  readLastChannel,
  rememberLastChannel,
} from './last-channel';

describe('the last channel kept per user', () => {
  afterEach(() => window.localStorage.clear());

  it('reads back the channel remembered for the same user only', () => {
    rememberLastChannel('lam', 'messaging:!members-abc');
    expect(readLastChannel('lam')).toEqual({
      type: 'messaging',
      id: '!members-abc',
      cid: 'messaging:!members-abc',
    });
    expect(readLastChannel('van')).toBeNull();
  });

  it('keeps the id whole when it contains a colon', () => {
    rememberLastChannel('lam', 'messaging:a:b');
    expect(readLastChannel('lam')?.id).toBe('a:b');
  });

  it('forgets only the channel it is told about', () => {
    rememberLastChannel('lam', 'sect:quang-truong');
    forgetLastChannel('lam', 'messaging:khac');
    expect(readLastChannel('lam')?.cid).toBe('sect:quang-truong');
    forgetLastChannel('lam', 'sect:quang-truong');
    expect(readLastChannel('lam')).toBeNull();
  });

  it.each(['', 'no-colon', ':id', 'type:', `sect:${'x'.repeat(200)}`])(
    'ignores a malformed stored value %j',
    (value) => {
      window.localStorage.setItem(`${LAST_CHANNEL_KEY_PREFIX}lam`, value);
      expect(readLastChannel('lam')).toBeNull();
    },
  );

  it('opens the kept channel when there is one, and names the first public sect channel as the fallback', () => {
    const sects = [
      { type: 'sect', id: 'quang-truong' },
      { type: 'sect', id: 'giao-dich' },
    ];
    const fallback = { type: 'sect', id: 'quang-truong', cid: 'sect:quang-truong' };
    expect(defaultChannel('lam', sects)).toEqual({ kept: null, fallback });
    rememberLastChannel('lam', 'messaging:hoi-dam');
    expect(defaultChannel('lam', sects)).toEqual({
      kept: { type: 'messaging', id: 'hoi-dam', cid: 'messaging:hoi-dam' },
      fallback,
    });
    expect(defaultChannel(undefined, sects).kept).toBeNull();
    expect(defaultChannel('lam', []).fallback).toBeNull();
  });
});
