import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { whenLanguageReady, writeLanguage } from '@/i18n';
import en from '@/i18n/locales/en.json';
import { describeSendFailure } from './messages/send-failure';
import { banNoticeText } from './moderation/own-ban';
import { reportReasonText } from './moderation/report-reasons';
import { notificationText, notificationWhen } from './notifications/notification-text';
import { formatReminderDueIn } from './reminders/reminder-due';
import { describeUnreadCount } from './utils/unread-count';

// The chat's formatters outside React follow the language on screen, like its components.
describe('the chat texts built outside components, in English', () => {
  beforeEach(async () => {
    writeLanguage('en');
    await whenLanguageReady();
  });
  afterEach(() => writeLanguage('vi'));

  it('says why a send failed in English, and only "Not sent" for a lost connection', () => {
    const slow = { code: 60, status: 429, message: 'slow mode: wait 30 seconds' };
    expect(describeSendFailure(slow, { cooldownRemaining: 12 }).text).toBe(
      'Not sent: the channel is in slow mode, wait 12 seconds',
    );
    expect(describeSendFailure(slow, { cooldownRemaining: 1 }).text).toBe(
      'Not sent: the channel is in slow mode, wait 1 second',
    );
    expect(describeSendFailure({ status: 0 }).text).toBe(en.chat.send.failed);
    expect(describeSendFailure({ code: 17, status: 403, message: 'user x is banned' }).text).toBe(
      'Not sent: you are banned from chatting',
    );
  });

  it('words notifications, their time and the unread count in English', () => {
    const mention = {
      id: 'n1',
      kind: 'mention',
      cid: 'messaging:quang-truong',
      message_id: 'm1',
      parent_id: null,
      actor_id: 'bach-van',
      actor: { id: 'bach-van', name: 'Bạch Vân' },
      channel_name: null,
      created_at: '2026-01-01T11:55:00.000Z',
      read_at: null,
    };
    expect(notificationText(mention)).toBe('Bạch Vân mentioned you in a conversation');
    const now = Date.parse('2026-01-01T12:00:00.000Z');
    expect(notificationWhen(mention.created_at, now)).toBe('5 minutes ago');
    expect(notificationWhen('2026-01-01T11:59:30.000Z', now)).toBe(en.chat.notifications.justNow);
    expect(describeUnreadCount(3)).toBe('3 unread messages');
    expect(describeUnreadCount(1)).toBe('1 unread message');
  });

  it('says a ban, a report check and a reminder due time in English', () => {
    expect(banNoticeText({ expires: null, reason: 'Spam' })).toBe(
      'You are banned from chatting permanently. Reason: Spam',
    );
    expect(reportReasonText('other', '')).toEqual({
      ok: false,
      message: en.chat.report.explainReason,
    });
    expect(reportReasonText('scam', 'fake shop')).toEqual({ ok: true, text: 'Scam: fake shop' });
    expect(formatReminderDueIn(2 * 60_000, 'en')).toBe('Due in 2 minutes');
    expect(formatReminderDueIn(-7 * 60_000, 'en')).toBe('Overdue by 7 minutes');
    expect(formatReminderDueIn(0, 'en')).toBe(en.chat.reminders.dueNow);
    expect(formatReminderDueIn(2 * 60_000, 'vi')).toBe('Đến hạn sau 2 phút');
  });
});
