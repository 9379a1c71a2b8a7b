import type { WebSocket } from 'ws';
import { describe, expect, it } from 'vitest';
import { createMemoryPubSub } from '../pubsub/memory.ts';
import { Connection } from './connection.ts';
import { Hub } from './hub.ts';
import { createMemoryPresenceStore } from './presence-store.ts';

// Presence bookkeeping never writes to the socket, so a closed stand-in is enough.
const socket = { readyState: 3 } as unknown as WebSocket;
let nextId = 0;
const connection = (userId: string, anonymous = false) =>
  new Connection({
    id: `c${nextId++}`,
    appId: 'app',
    userId,
    role: 'user',
    anonymous,
    socket,
    maxBufferedBytes: 1e6,
    onBroken: () => {},
  });

describe('the memory presence store of one process', () => {
  const log = { warn: () => {} };

  it('calls only the first socket of a user an arrival and only the last one a departure', async () => {
    const hub = new Hub(createMemoryPubSub(), log);
    const presence = createMemoryPresenceStore(hub);
    const [first, second] = [connection('lan'), connection('lan')];
    hub.add(first);
    expect(await presence.connected('app', 'lan')).toBe(true);
    hub.add(second);
    expect(await presence.connected('app', 'lan')).toBe(false);
    hub.remove(first);
    expect(await presence.disconnected('app', 'lan')).toBe(false);
    hub.remove(second);
    expect(await presence.disconnected('app', 'lan')).toBe(true);
  });

  it('answers which users are online in one call and lists them for the online filter', async () => {
    const hub = new Hub(createMemoryPubSub(), log);
    const presence = createMemoryPresenceStore(hub);
    hub.add(connection('lan'));
    hub.add(connection('khach', true));
    expect([...(await presence.onlineAmong('app', ['lan', 'diep', 'khach']))]).toEqual([
      'lan',
      'khach',
    ]);
    expect(await presence.onlineUserIds('app')).toEqual(['lan']);
    expect(await presence.onlineAmong('other-app', ['lan'])).toEqual(new Set());
  });

  it('counts distinct watchers with anonymous ones but lists only the signed-in ones', async () => {
    const hub = new Hub(createMemoryPubSub(), log);
    const presence = createMemoryPresenceStore(hub);
    const [lan, lanAgain, guest] = [connection('lan'), connection('lan'), connection('x', true)];
    for (const c of [lan, lanAgain, guest]) {
      hub.add(c);
      hub.watch(c, 'messaging:a');
    }
    const counts = await presence.watcherCounts('app', ['messaging:a', 'messaging:b']);
    expect(counts).toEqual(
      new Map([
        ['messaging:a', 2],
        ['messaging:b', 0],
      ]),
    );
    expect(await presence.watcherUserIds('app', 'messaging:a', 0, 10)).toEqual(['lan']);
    expect(await presence.watcherUserIds('app', 'messaging:a', 1, 10)).toEqual([]);
  });
});
