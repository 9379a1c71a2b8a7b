import { StreamChat, type Event, type GetUnreadCountAPIResponse } from 'stream-chat';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNREAD_REFRESH_DELAY_MS, watchTotalUnread } from './unread-total';

// A real stream-chat client with a user but no connection: events are fed in through its own dispatchEvent, and
// the one request the watcher may make (GET /unread) is answered by `answerUnread`.
function clientFor(userId: string, totalAtConnect: number) {
  const client = new StreamChat('test-key');
  client.userID = userId;
  client.user = { id: userId, total_unread_count: totalAtConnect } as StreamChat['user'];
  const answerUnread = vi.fn(async () => ({ total_unread_count: 0 }) as GetUnreadCountAPIResponse);
  client.getUnreadCount = answerUnread;
  return { client, answerUnread };
}

function event(fields: Partial<Event> & { type: Event['type'] }): Event {
  return { created_at: new Date().toISOString(), ...fields } as Event;
}

describe('watchTotalUnread', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts from the total the connection reported', () => {
    const { client } = clientFor('a', 7);
    const seen: number[] = [];
    const stop = watchTotalUnread(client, (total) => seen.push(total));
    expect(seen).toEqual([7]);
    stop();
  });

  it('takes the total an event carries, without asking the server', async () => {
    const { client, answerUnread } = clientFor('a', 0);
    const seen: number[] = [];
    const stop = watchTotalUnread(client, (total) => seen.push(total));
    client.dispatchEvent(event({ type: 'notification.message_new', total_unread_count: 3 }));
    client.dispatchEvent(event({ type: 'notification.mark_read', total_unread_count: 0 }));
    await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_DELAY_MS * 2);
    expect(seen).toEqual([0, 3, 0]);
    expect(answerUnread).not.toHaveBeenCalled();
    stop();
  });

  it('asks the server once for a burst of events that do not carry the total', async () => {
    const { client, answerUnread } = clientFor('a', 0);
    answerUnread.mockResolvedValue({ total_unread_count: 2 } as GetUnreadCountAPIResponse);
    const seen: number[] = [];
    const stop = watchTotalUnread(client, (total) => seen.push(total));
    client.dispatchEvent(event({ type: 'notification.message_new', user: { id: 'b' } }));
    client.dispatchEvent(event({ type: 'notification.message_new', user: { id: 'b' } }));
    await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_DELAY_MS);
    expect(answerUnread).toHaveBeenCalledTimes(1);
    expect(seen).toEqual([0, 2]);
    stop();
  });

  it("ignores one's own new messages and events that cannot change the count", async () => {
    const { client, answerUnread } = clientFor('a', 0);
    const stop = watchTotalUnread(client, () => {});
    client.dispatchEvent(event({ type: 'message.new', user: { id: 'a' } }));
    client.dispatchEvent(event({ type: 'typing.start', user: { id: 'b' } }));
    await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_DELAY_MS * 2);
    expect(answerUnread).not.toHaveBeenCalled();
    stop();
  });

  it('asks nothing once stopped', async () => {
    const { client, answerUnread } = clientFor('a', 0);
    const stop = watchTotalUnread(client, () => {});
    client.dispatchEvent(event({ type: 'notification.mark_unread', user: { id: 'a' } }));
    stop();
    await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_DELAY_MS * 2);
    expect(answerUnread).not.toHaveBeenCalled();
  });

  it('drops the answer to a request still under way when it is stopped', async () => {
    const { client, answerUnread } = clientFor('a', 0);
    let answer: (value: GetUnreadCountAPIResponse) => void = () => {};
    answerUnread.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const seen: number[] = [];
    const stop = watchTotalUnread(client, (total) => seen.push(total));
    client.dispatchEvent(event({ type: 'notification.mark_unread', user: { id: 'a' } }));
    await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_DELAY_MS);
    expect(answerUnread).toHaveBeenCalledTimes(1);
    stop();
    answer({ total_unread_count: 9 } as GetUnreadCountAPIResponse);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([0]);
  });

  it('keeps a total an event brought over an older answer that arrives after it', async () => {
    const { client, answerUnread } = clientFor('a', 0);
    let answer: (value: GetUnreadCountAPIResponse) => void = () => {};
    answerUnread.mockReturnValue(new Promise((resolve) => (answer = resolve)));
    const seen: number[] = [];
    const stop = watchTotalUnread(client, (total) => seen.push(total));
    client.dispatchEvent(event({ type: 'message.new', user: { id: 'b' } }));
    await vi.advanceTimersByTimeAsync(UNREAD_REFRESH_DELAY_MS);
    client.dispatchEvent(event({ type: 'notification.mark_read', total_unread_count: 0 }));
    answer({ total_unread_count: 1 } as GetUnreadCountAPIResponse);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([0, 0]);
    stop();
  });
});
