import { describe, expect, it } from 'vitest';
import {
  browserNotificationBody,
  browserNotificationTitle,
  eventMemberCount,
  reasonToNotify,
  shouldNotify,
  type MessageFacts,
  type NotifyConditions,
} from './browser-notifications';

function facts(extra: Partial<MessageFacts> = {}): MessageFacts {
  return {
    ownUserId: 'han-lap',
    authorId: 'bach-van',
    messageType: 'regular',
    mentionedIds: [],
    channelType: 'messaging',
    memberCount: 5,
    ...extra,
  };
}

describe('which messages concern the cultivator', () => {
  it('a mention of them, anywhere', () => {
    expect(reasonToNotify(facts({ mentionedIds: ['han-lap'] }))).toBe('mention');
    expect(reasonToNotify(facts({ mentionedIds: ['han-lap'], channelType: 'sect' }))).toBe(
      'mention',
    );
  });

  it('a message in a conversation of two', () => {
    expect(reasonToNotify(facts({ memberCount: 2 }))).toBe('direct_message');
  });

  it('not a message in a group or a sect channel that does not mention them', () => {
    expect(reasonToNotify(facts())).toBeNull();
    expect(reasonToNotify(facts({ channelType: 'sect', memberCount: 2 }))).toBeNull();
    expect(reasonToNotify(facts({ memberCount: undefined }))).toBeNull();
    expect(reasonToNotify(facts({ mentionedIds: ['nam-cung'] }))).toBeNull();
  });

  it('never their own message, a system message or one without an author', () => {
    expect(reasonToNotify(facts({ authorId: 'han-lap', mentionedIds: ['han-lap'] }))).toBeNull();
    expect(reasonToNotify(facts({ messageType: 'system', memberCount: 2 }))).toBeNull();
    expect(reasonToNotify(facts({ messageType: 'error', memberCount: 2 }))).toBeNull();
    expect(reasonToNotify(facts({ authorId: undefined, memberCount: 2 }))).toBeNull();
  });
});

describe('when the browser tells them', () => {
  const ready: NotifyConditions = {
    optedIn: true,
    permission: 'granted',
    visibilityState: 'hidden',
    reason: 'mention',
  };

  it('only with the opt-in, the permission, a hidden tab and a reason all at once', () => {
    expect(shouldNotify(ready)).toBe(true);
    expect(shouldNotify({ ...ready, optedIn: false })).toBe(false);
    expect(shouldNotify({ ...ready, permission: 'default' })).toBe(false);
    expect(shouldNotify({ ...ready, permission: 'denied' })).toBe(false);
    expect(shouldNotify({ ...ready, permission: 'unsupported' })).toBe(false);
    expect(shouldNotify({ ...ready, visibilityState: 'visible' })).toBe(false);
    expect(shouldNotify({ ...ready, reason: null })).toBe(false);
  });

  it('titles by reason and shortens long texts', () => {
    expect(browserNotificationTitle('mention', 'Bạch Vân')).toBe('Bạch Vân nhắc đến đạo hữu');
    expect(browserNotificationTitle('direct_message', 'Bạch Vân')).toBe('Tin nhắn từ Bạch Vân');
    expect(browserNotificationBody('  Chào   đạo hữu ')).toBe('Chào đạo hữu');
    expect(browserNotificationBody('')).toBe('Tin nhắn mới');
    const long = browserNotificationBody('a'.repeat(300));
    expect(long).toHaveLength(120);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('how many members a message event’s channel has', () => {
  it('takes the event’s own count before what the client holds, which a just-watched channel lacks', () => {
    expect(eventMemberCount({ channel_member_count: 2 }, undefined)).toBe(2);
    expect(eventMemberCount({ channel_member_count: 2 }, 7)).toBe(2);
    expect(eventMemberCount({ channel: { member_count: 3 } }, 7)).toBe(3);
    expect(eventMemberCount({}, 4)).toBe(4);
    expect(eventMemberCount({}, undefined)).toBeUndefined();
  });
});
