import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pollAnswer, PollSocket, type PollLimits } from './longpoll-socket.ts';

const LIMITS: PollLimits = { holdMs: 1_000, idleMs: 5_000, maxQueuedEvents: 3, maxQueuedBytes: 64 };

describe('PollSocket', () => {
  let ends: string[];
  let socket: PollSocket;

  beforeEach(() => {
    vi.useFakeTimers();
    ends = [];
    socket = new PollSocket(LIMITS, (reason) => ends.push(reason));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('answers a poll at once with everything queued, in order', async () => {
    socket.send('{"n":1}');
    socket.send('{"n":2}');
    expect(await socket.poll().events).toEqual(['{"n":1}', '{"n":2}']);
  });

  it('answers a waiting poll with the events of one turn together', async () => {
    const pending = socket.poll();
    socket.send('{"n":1}');
    socket.send('{"n":2}');
    await vi.advanceTimersToNextTimerAsync();
    expect(await pending.events).toEqual(['{"n":1}', '{"n":2}']);
  });

  it('answers a poll with no events once its hold ends', async () => {
    const pending = socket.poll();
    await vi.advanceTimersByTimeAsync(LIMITS.holdMs);
    expect(await pending.events).toEqual([]);
  });

  it('ends the waiting poll with no events when a newer one arrives, which gets the next event', async () => {
    const older = socket.poll();
    const newer = socket.poll();
    expect(await older.events).toEqual([]);
    socket.send('{"n":1}');
    await vi.advanceTimersToNextTimerAsync();
    expect(await newer.events).toEqual(['{"n":1}']);
  });

  it('fails the write that overflows the queue, by count or by bytes', async () => {
    const failures: (Error | undefined)[] = [];
    for (let n = 0; n < 4; n += 1) socket.send(`{"n":${n}}`, (error) => failures.push(error));
    await vi.advanceTimersByTimeAsync(0);
    expect(failures.filter(Boolean)).toHaveLength(1);

    const other = new PollSocket(LIMITS, () => undefined);
    let failed: Error | undefined;
    other.send(JSON.stringify({ text: 'x'.repeat(100) }), (error) => (failed = error));
    await vi.advanceTimersByTimeAsync(0);
    expect(failed).toBeInstanceOf(Error);
  });

  it('ends by itself when nobody polls for the idle time, and not while a poll waits', async () => {
    // A hold longer than the idle time: a waiting poll must keep the connection alive past it.
    const heldEnds: string[] = [];
    const held = new PollSocket({ ...LIMITS, holdMs: 3 * LIMITS.idleMs }, (reason) =>
      heldEnds.push(reason),
    );
    const pending = held.poll();
    await vi.advanceTimersByTimeAsync(2 * LIMITS.idleMs);
    expect(heldEnds).toEqual([]);
    await vi.advanceTimersByTimeAsync(LIMITS.idleMs);
    expect(await pending.events).toEqual([]);
    await vi.advanceTimersByTimeAsync(LIMITS.idleMs - 1);
    expect(held.isOpen).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(heldEnds).toEqual(['idle']);
    // The fixture's socket, never polled, expired long before.
    expect(ends).toEqual(['idle']);
  });

  it('gives the waiting poll what was queued when it closes, and ends once', async () => {
    const pending = socket.poll();
    socket.send('{"last":true}');
    socket.close(1000, 'closed by the client');
    socket.terminate();
    expect(await pending.events).toEqual(['{"last":true}']);
    expect(ends).toEqual(['closed by the client']);
  });

  it('builds the poll answer from the events’ JSON texts', () => {
    expect(JSON.parse(pollAnswer(['{"type":"a"}', '{"type":"b"}']))).toEqual({
      events: [{ type: 'a' }, { type: 'b' }],
    });
    expect(JSON.parse(pollAnswer([]))).toEqual({ events: [] });
  });
});
