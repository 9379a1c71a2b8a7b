import type { Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { banChangeFromEvent, banFromUser, banNoticeText, hasLapsed } from './own-ban';

const at = (year: number, month: number, day: number, hour: number, minute: number) =>
  new Date(year, month - 1, day, hour, minute).toISOString();

describe('banNoticeText', () => {
  it('says until when, in local time as Vietnamese users write it, and why', () => {
    expect(banNoticeText({ expires: at(2026, 11, 25, 14, 30), reason: 'Xúc phạm đạo hữu' })).toBe(
      'Đạo hữu đã bị cấm chat đến 14:30 25/11/2026. Lý do: Xúc phạm đạo hữu',
    );
  });

  it('says a ban without an end is permanent, and leaves out a missing reason', () => {
    expect(banNoticeText({ expires: null, reason: null })).toBe(
      'Đạo hữu đã bị cấm chat vĩnh viễn.',
    );
  });
});

describe('banFromUser', () => {
  const now = Date.parse(at(2026, 11, 25, 12, 0));

  it('reads banned, ban_expires and ban_reason from me', () => {
    const expires = at(2026, 11, 25, 13, 0);
    expect(
      banFromUser({ id: 'a', banned: true, ban_expires: expires, ban_reason: 'spam' }, now),
    ).toEqual({ expires, reason: 'spam' });
  });

  it('is null once the ban has lapsed or when not banned, and undefined when me says nothing', () => {
    expect(banFromUser({ id: 'a', banned: true, ban_expires: at(2026, 11, 25, 11, 0) }, now)).toBe(
      null,
    );
    expect(banFromUser({ id: 'a', banned: false }, now)).toBe(null);
    expect(banFromUser({ id: 'a' }, now)).toBeUndefined();
  });
});

describe('banChangeFromEvent', () => {
  const banned = (extra: Partial<Event>): Event =>
    ({ type: 'user.banned', user: { id: 'me' }, ...extra }) as Event;

  it('turns a user.banned about me into a ban with the reason and expiration it carries', () => {
    const expires = at(2026, 11, 25, 14, 30);
    const event = banned({ cid: 'livestream:quang-truong' });
    Object.assign(event, { reason: 'Xúc phạm', expiration: expires });
    expect(banChangeFromEvent(event, 'me')).toEqual({
      cid: 'livestream:quang-truong',
      ban: { expires, reason: 'Xúc phạm' },
    });
  });

  it('ignores bans of other users and shadow bans, which the banned user must not notice', () => {
    expect(banChangeFromEvent(banned({ user: { id: 'other' } }), 'me')).toBeUndefined();
    expect(banChangeFromEvent(banned({ shadow: true }), 'me')).toBeUndefined();
  });

  it('turns user.unbanned about me into the end of the ban', () => {
    const event = { type: 'user.unbanned', user: { id: 'me' } } as Event;
    expect(banChangeFromEvent(event, 'me')).toEqual({ cid: null, ban: null });
  });
});

describe('hasLapsed', () => {
  it('is false for a permanent ban and true after the end', () => {
    expect(hasLapsed({ expires: null, reason: null })).toBe(false);
    expect(hasLapsed({ expires: at(2020, 1, 1, 0, 0), reason: null })).toBe(true);
  });
});
