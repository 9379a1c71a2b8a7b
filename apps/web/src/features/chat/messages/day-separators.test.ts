import type { LocalMessage } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { dropRepeatedDaySeparator } from './day-separators';

function message(id: string, createdAt: string): LocalMessage {
  return { id, created_at: new Date(createdAt) } as unknown as LocalMessage;
}

function separator(createdAt: string, unread: boolean) {
  const date = new Date(createdAt);
  return { customType: 'message.date', date, id: `message.date-${createdAt}`, unread };
}

type Review = Parameters<typeof dropRepeatedDaySeparator>[0];

function review(messages: LocalMessage[], index: number, changes: unknown[]): unknown[] {
  return dropRepeatedDaySeparator({
    changes: changes as Review['changes'],
    context: { userId: 'me' },
    index,
    messages,
    processedMessages: [],
  });
}

describe('dropRepeatedDaySeparator', () => {
  const earlier = message('earlier', '2026-11-26T08:00:00');
  const live = message('live', '2026-11-26T09:00:00');

  it('drops the unread day separator before a message of the same day as the one above it', () => {
    const changes = [separator('2026-11-26T09:00:00', true), live];
    expect(review([earlier, live], 1, changes)).toEqual([live]);
  });

  it('keeps the unread day separator when the unread message starts a new day', () => {
    const yesterday = message('yesterday', '2026-11-25T22:00:00');
    const changes = [separator('2026-11-26T09:00:00', true), live];
    expect(review([yesterday, live], 1, changes)).toEqual(changes);
  });

  it('keeps the unread day separator above the first message of the page', () => {
    const changes = [separator('2026-11-26T09:00:00', true), live];
    expect(review([live], 0, changes)).toEqual(changes);
  });

  it('keeps an ordinary day separator', () => {
    const changes = [separator('2026-11-26T08:00:00', false), earlier];
    expect(review([earlier, live], 0, changes)).toEqual(changes);
  });
});
