import type { ReminderResponse } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { groupReminders, reminderMessageHref } from './reminder-groups';

function reminder(
  messageId: string,
  remindAt: string | undefined,
  createdAt = '2026-01-01T00:00:00.000Z',
) {
  return {
    channel_cid: 'messaging:abc',
    message_id: messageId,
    user_id: 'u1',
    created_at: createdAt,
    updated_at: createdAt,
    ...(remindAt ? { remind_at: remindAt } : {}),
  } as ReminderResponse;
}

describe('groupReminders', () => {
  const now = Date.parse('2026-06-01T12:00:00.000Z');

  it('puts reminders without a time under saved, newest first', () => {
    const groups = groupReminders(
      [
        reminder('a', undefined, '2026-01-01T00:00:00.000Z'),
        reminder('b', undefined, '2026-02-01T00:00:00.000Z'),
      ],
      now,
    );
    expect(groups.saved.map((r) => r.message_id)).toEqual(['b', 'a']);
    expect(groups.upcoming).toEqual([]);
    expect(groups.overdue).toEqual([]);
  });

  it('splits timed reminders at now: upcoming soonest first, overdue latest first', () => {
    const groups = groupReminders(
      [
        reminder('later', '2026-06-02T00:00:00.000Z'),
        reminder('soon', '2026-06-01T12:30:00.000Z'),
        reminder('long-ago', '2026-05-01T00:00:00.000Z'),
        reminder('just-now', '2026-06-01T12:00:00.000Z'),
      ],
      now,
    );
    expect(groups.upcoming.map((r) => r.message_id)).toEqual(['soon', 'later']);
    expect(groups.overdue.map((r) => r.message_id)).toEqual(['just-now', 'long-ago']);
  });
});

describe('reminderMessageHref', () => {
  it('links to the message inside its channel, encoding ids that hold ":" or "!"', () => {
    expect(reminderMessageHref('messaging:!members-a:b', 'm1')).toBe(
      '/chat/messaging/!members-a%3Ab?tin-nhan=m1',
    );
  });
});
