import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  EVENT_TIMEOUT_MS,
  type ContractEnv,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './contract/helpers.ts';

interface RawClient {
  userId: string;
  socket: WebSocket;
  connectionId: string;
  frames: Record<string, unknown>[];
  waitFor(count: number, type: string): Promise<Record<string, unknown>[]>;
}

/** A bare websocket speaking the client's protocol, recording every frame exactly as received. */
async function connectRaw(env: ContractEnv, userId: string): Promise<RawClient> {
  const { server, admin } = env;
  const token = admin.createToken(userId);
  const json = encodeURIComponent(
    JSON.stringify({ user_id: userId, user_details: { id: userId }, client_request_id: 'x' }),
  );
  const url = `${server.baseURL.replace('http', 'ws')}/connect?json=${json}&api_key=${server.apiKey}&authorization=${token}&stream-auth-type=jwt`;
  const socket = new WebSocket(url);
  const frames: Record<string, unknown>[] = [];
  const waiters: (() => void)[] = [];
  socket.on('message', (data) => {
    frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
    for (const wake of waiters.splice(0)) wake();
  });
  const waitFor = (count: number, type: string) =>
    new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`timed out waiting for ${count} ${type}`)),
        EVENT_TIMEOUT_MS,
      );
      const check = () => {
        const matching = frames.filter((f) => f.type === type);
        if (matching.length >= count) {
          clearTimeout(timer);
          resolve(matching);
        } else waiters.push(check);
      };
      check();
    });
  const [health] = await waitFor(1, 'health.check');
  return { userId, socket, connectionId: health!.connection_id as string, frames, waitFor };
}

describe('fan-out through the hub', () => {
  const env = useContractEnv();

  it('delivers a burst of sends to every watcher as separate frames, in order, with identical bytes', async () => {
    const senderId = uniqueId('sender');
    const watcherIds = ['w1', 'w2', 'w3'].map((prefix) => uniqueId(prefix));
    await createUsers(env(), [senderId, ...watcherIds]);
    const channelId = uniqueId('dai-dien');
    await createChannelAsServer(env(), 'livestream', channelId, senderId, { members: [senderId] });

    const watchers = await Promise.all(watcherIds.map((id) => connectRaw(env(), id)));
    const { server, admin } = env();
    for (const watcher of watchers) {
      const response = await fetch(
        `${server.baseURL}/channels/livestream/${channelId}/query?api_key=${server.apiKey}&connection_id=${watcher.connectionId}`,
        {
          method: 'POST',
          headers: {
            authorization: admin.createToken(watcher.userId),
            'stream-auth-type': 'jwt',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ watch: true, state: true }),
        },
      );
      expect(response.status).toBe(200);
    }
    const sender = await connectUser(env(), senderId);
    const channel = await watchChannel(sender, 'livestream', channelId);

    const sent = await Promise.all(
      Array.from({ length: 30 }, (_, i) => channel.sendMessage({ text: `tin ${i}` })),
    );
    const order = [...sent]
      .sort((a, b) => a.message.created_at!.localeCompare(b.message.created_at!))
      .map((r) => r.message.id);

    const received = await Promise.all(watchers.map((w) => w.waitFor(30, 'message.new')));
    for (const frames of received) {
      expect(frames.map((f) => (f.message as { id: string }).id)).toEqual(order);
    }
    expect(JSON.stringify(received[0])).toBe(JSON.stringify(received[2]));
    for (const w of watchers) w.socket.close();
  });
});
