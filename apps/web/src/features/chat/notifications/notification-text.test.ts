import { describe, expect, it } from 'vitest';
import {
  notificationHref,
  notificationText,
  notificationWhen,
  type AppNotification,
} from './notification-text';

function notification(kind: string, extra: Partial<AppNotification> = {}): AppNotification {
  return {
    id: 'n1',
    kind,
    cid: 'messaging:quang-truong',
    message_id: 'm1',
    parent_id: null,
    actor_id: 'bach-van',
    actor: { id: 'bach-van', name: 'Bạch Vân' },
    channel_name: 'Quảng Trường',
    created_at: '2026-01-01T00:00:00.000Z',
    read_at: null,
    ...extra,
  };
}

describe('the text of each notification kind', () => {
  it.each([
    ['mention', 'Bạch Vân nhắc đến đạo hữu trong Quảng Trường'],
    ['reply', 'Bạch Vân trả lời chuỗi trả lời của đạo hữu trong Quảng Trường'],
    ['reaction', 'Bạch Vân bày tỏ biểu cảm với tin nhắn của đạo hữu trong Quảng Trường'],
    ['added_to_channel', 'Đạo hữu được thêm vào Quảng Trường'],
    ['reminder_due', 'Đến hạn lời nhắc trong Quảng Trường'],
    ['campaign', 'Thông báo từ tông môn trong Quảng Trường'],
  ])('says who did what where for a %s', (kind, text) => {
    expect(notificationText(notification(kind))).toBe(text);
  });

  it('falls back to the actor id, then to "Một đạo hữu", and to "một cuộc trò chuyện" without a channel name', () => {
    expect(
      notificationText(notification('mention', { actor: { id: 'bach-van' }, channel_name: null })),
    ).toBe('bach-van nhắc đến đạo hữu trong một cuộc trò chuyện');
    expect(notificationText(notification('mention', { actor: null, actor_id: null }))).toBe(
      'Một đạo hữu nhắc đến đạo hữu trong Quảng Trường',
    );
  });

  it('names the realm reached in a breakthrough, and says "cảnh giới mới" without one', () => {
    const breakthrough = notification('breakthrough', {
      cid: null,
      message_id: null,
      actor: null,
      actor_id: null,
      data: { realm: 'Kim Đan Sơ Kỳ' },
    });
    expect(notificationText(breakthrough)).toBe('Đột phá! Đạo hữu đã đạt cảnh giới Kim Đan Sơ Kỳ');
    expect(notificationText({ ...breakthrough, data: {} })).toBe(
      'Đột phá! Đạo hữu đã đạt cảnh giới mới',
    );
    expect(notificationHref(breakthrough)).toBeNull();
  });

  it('says something sensible for a kind it does not know', () => {
    expect(notificationText(notification('khac'))).toBe('Thông báo mới trong Quảng Trường');
  });
});

describe('when and where a notification leads', () => {
  const now = Date.parse('2026-01-01T12:00:00.000Z');

  it('says when relative to now, in Vietnamese', () => {
    expect(notificationWhen('2026-01-01T11:59:30.000Z', now)).toBe('vừa xong');
    expect(notificationWhen('2026-01-01T11:55:00.000Z', now)).toBe('5 phút trước');
    expect(notificationWhen('2026-01-01T09:00:00.000Z', now)).toBe('3 giờ trước');
  });

  it('links to the message in its channel, to the thread for a reply, and to the channel without a message', () => {
    expect(notificationHref(notification('mention'))).toBe(
      '/chat/messaging/quang-truong?ket-qua=m1',
    );
    expect(notificationHref(notification('reply', { parent_id: 'p1' }))).toBe(
      '/chat/messaging/quang-truong?ket-qua=m1&chuoi=p1',
    );
    expect(notificationHref(notification('added_to_channel', { message_id: null }))).toBe(
      '/chat/messaging/quang-truong',
    );
    expect(notificationHref(notification('mention', { cid: null }))).toBeNull();
  });
});
