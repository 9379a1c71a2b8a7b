import { describe, expect, it } from 'vitest';
import type { BusEntry } from './pubsub.ts';
import { decodeBatch, decodeMessage, encodeBatch, encodeMessage } from './wire.ts';

const frame = JSON.stringify({ type: 'message.new', text: 'Đạo hữu\nxin chào "tu tiên" 🌸' });

describe('the bus wire format', () => {
  it('carries a message and its routing hints unchanged, with the publishing node', () => {
    const message = {
      frame,
      skipConnectionIds: ['c1'],
      skipUserIds: ['u1'],
      skipWatchersOf: 'messaging:a',
      onlyWatchersOf: 'messaging:b',
      watcherCount: 3,
      ephemeral: true,
    };
    expect(decodeMessage(encodeMessage(message, 'node-a'))).toEqual({ node: 'node-a', message });
  });

  it('carries a batch with shared frames, each entry with its own topic, hints and frame', () => {
    const other = JSON.stringify({ type: 'notification.added_to_channel' });
    const entries: BusEntry[] = [
      { topic: 'user:app:an', message: { frame } },
      { topic: 'user:app:tu', message: { frame, skipConnectionIds: ['c9'] } },
      { topic: 'channel:app:messaging:x', message: { frame: other, watcherCount: 12 } },
    ];
    expect(decodeBatch(encodeBatch(entries, 'node-b'))).toEqual({ node: 'node-b', entries });
  });

  it('drops a batch whose frame lengths do not account for its body exactly, never delivering a cut frame', () => {
    const payload = encodeBatch([{ topic: 'user:app:an', message: { frame } }], 'n');
    expect(decodeBatch(payload.slice(0, -1))).toBeUndefined();
    expect(decodeBatch(`${payload}x`)).toBeUndefined();
  });

  it('drops a batch whose header is malformed in any part', () => {
    const body = 'abc';
    const header = (value: unknown) => `${JSON.stringify(value)}\n${body}`;
    const good = { node: 'n', frames: [3], entries: [{ topic: 't:1', frame: 0 }] };
    expect(decodeBatch(header(good))).toEqual({
      node: 'n',
      entries: [{ topic: 't:1', message: { frame: 'abc' } }],
    });
    for (const bad of [
      { ...good, node: 1 },
      { ...good, frames: 'abc' },
      { ...good, frames: [-1, 4] },
      { ...good, frames: [1.5, 1.5] },
      { ...good, entries: {} },
      { ...good, entries: [{ topic: 't:1', frame: 1 }] },
      { ...good, entries: [{ topic: 't:1', frame: '0' }] },
      { ...good, entries: [{ topic: 7, frame: 0 }] },
      { ...good, entries: [{ topic: 't:1', frame: 0, skipUserIds: 'an' }] },
      { ...good, entries: [{ topic: 't:1', frame: 0, watcherCount: -1 }] },
      [good],
      null,
    ])
      expect(decodeBatch(header(bad)), JSON.stringify(bad)).toBeUndefined();
    expect(decodeBatch('not json\nabc')).toBeUndefined();
    expect(decodeBatch('no newline at all')).toBeUndefined();
  });

  it('drops a message whose header is not an object with a node, or has a hint of the wrong type', () => {
    expect(decodeMessage(`{"node":"n"}\n${frame}`)).toEqual({ node: 'n', message: { frame } });
    expect(decodeMessage(`{"node":3}\n${frame}`)).toBeUndefined();
    expect(decodeMessage(`[1]\n${frame}`)).toBeUndefined();
    expect(decodeMessage(`{"node":"n","skipConnectionIds":[1]}\n${frame}`)).toBeUndefined();
    expect(decodeMessage(`{"node":"n","onlyWatchersOf":{}}\n${frame}`)).toBeUndefined();
    expect(decodeMessage(`{"node":"n","ephemeral":"yes"}\n${frame}`)).toBeUndefined();
    expect(decodeMessage(frame)).toBeUndefined();
  });
});
