import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { createMemoryPubSub } from '../pubsub/memory.ts';
import { Connection } from './connection.ts';
import { Hub } from './hub.ts';

// Watcher bookkeeping never writes to the socket, so a closed stand-in is enough.
const socket = { readyState: 3 } as unknown as WebSocket;
let nextId = 0;
const connect = (hub: Hub, userId: string, anonymous = false) => {
  const connection = new Connection({
    id: `c${nextId++}`,
    appId: 'app',
    userId,
    role: 'user',
    anonymous,
    socket,
    maxBufferedBytes: 1e6,
    onBroken: () => {},
  });
  hub.add(connection);
  return connection;
};

describe('hub watcher bookkeeping', () => {
  const log = { warn: () => {} };

  it('counts distinct users, not sockets, and forgets a user only after their last socket leaves', () => {
    const hub = new Hub(createMemoryPubSub(), log);
    const [a1, a2, b] = [connect(hub, 'a'), connect(hub, 'a'), connect(hub, 'b')];
    for (const connection of [a1, a2, b]) hub.watch(connection, 'messaging:x');
    hub.watch(a1, 'messaging:x');

    expect(hub.watcherCount('app', 'messaging:x')).toBe(2);
    hub.unwatch(a1, 'messaging:x');
    expect(hub.isWatching('app', 'messaging:x', 'a')).toBe(true);
    hub.remove(a2);
    expect(hub.isWatching('app', 'messaging:x', 'a')).toBe(false);
    expect(hub.watcherCount('app', 'messaging:x')).toBe(1);
    hub.remove(b);
    expect(hub.watcherCount('app', 'messaging:x')).toBe(0);
  });

  it('pages the signed-in watchers and leaves anonymous ones out of the list but not the count', () => {
    const hub = new Hub(createMemoryPubSub(), log);
    for (const id of ['u1', 'u2', 'u3']) hub.watch(connect(hub, id), 'livestream:q');
    hub.watch(connect(hub, '!anon', true), 'livestream:q');

    expect(hub.watcherCount('app', 'livestream:q')).toBe(4);
    expect(hub.watcherUserIds('app', 'livestream:q')).toEqual(['u1', 'u2', 'u3']);
    expect(hub.watcherUserIds('app', 'livestream:q', 1, 1)).toEqual(['u2']);
    expect(hub.watcherUserIds('app', 'livestream:q', 3, 5)).toEqual([]);
  });

  it('stamps a channel once subscribed, moves the stamp on every stored change and keeps it across typing and watching', async () => {
    const pubsub = createMemoryPubSub();
    const hub = new Hub(pubsub, log);
    const topic = 'channel:app:livestream:s';
    expect(hub.channelStamp('app', 'livestream:s')).toBeUndefined();
    const watcher = connect(hub, 'a');
    hub.watch(watcher, 'livestream:s');
    // The subscription resolves asynchronously: until then the node could miss events, so there is no stamp.
    expect(hub.channelStamp('app', 'livestream:s')).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    const first = hub.channelStamp('app', 'livestream:s');
    expect(first).toBeGreaterThan(0);

    await pubsub.publish(topic, { frame: '{"type":"typing.start"}', ephemeral: true });
    expect(hub.channelStamp('app', 'livestream:s')).toBe(first);
    await pubsub.publish(topic, { frame: '{"type":"message.read"}' });
    const second = hub.channelStamp('app', 'livestream:s');
    expect(second).toBeGreaterThan(first!);

    // Left and joined again: a new stamp, never one an earlier subscription handed out.
    hub.remove(watcher);
    expect(hub.channelStamp('app', 'livestream:s')).toBeUndefined();
    hub.watch(connect(hub, 'b'), 'livestream:s');
    await new Promise((resolve) => setImmediate(resolve));
    expect(hub.channelStamp('app', 'livestream:s')).toBeGreaterThan(second!);
  });
});
