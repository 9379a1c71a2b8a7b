import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StreamChat } from 'stream-chat';
import WebSocket from 'ws';
import { startTestChatServer, type TestChatServer } from '../src/testing/harness.ts';

interface RawClient {
  socket: WebSocket;
  connectionId: string;
  frames: Record<string, unknown>[];
  waitFor(count: number, type: string): Promise<Record<string, unknown>[]>;
}

/** A bare websocket speaking the client's protocol, recording every frame exactly as received. */
async function connectRaw(
  server: TestChatServer,
  userId: string,
  token: string,
): Promise<RawClient> {
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
        5000,
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
  return { socket, connectionId: health!.connection_id as string, frames, waitFor };
}

describe('fan-out through the hub', () => {
  let server: TestChatServer;
  let admin: StreamChat;

  beforeAll(async () => {
    server = await startTestChatServer();
    admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
    await admin.upsertUsers([{ id: 'sender' }, { id: 'w1' }, { id: 'w2' }, { id: 'w3' }]);
    await admin
      .channel('livestream', 'dai-dien', { created_by_id: 'sender', members: ['sender'] } as never)
      .create();
  });
  afterAll(async () => {
    await server.close();
  });

  it('delivers a burst of sends to every watcher as separate frames, in order, with identical bytes', async () => {
    const watchers = await Promise.all(
      ['w1', 'w2', 'w3'].map((id) => connectRaw(server, id, admin.createToken(id))),
    );
    for (const [index, watcher] of watchers.entries()) {
      const response = await fetch(
        `${server.baseURL}/channels/livestream/dai-dien/query?api_key=${server.apiKey}&connection_id=${watcher.connectionId}`,
        {
          method: 'POST',
          headers: {
            authorization: admin.createToken(`w${index + 1}`),
            'stream-auth-type': 'jwt',
            'content-type': 'application/json',
          },
          body: JSON.stringify({ watch: true, state: true }),
        },
      );
      expect(response.status).toBe(200);
    }
    const sender = new StreamChat(server.apiKey, { baseURL: server.baseURL });
    await sender.connectUser({ id: 'sender' }, admin.createToken('sender'));
    const channel = sender.channel('livestream', 'dai-dien');
    await channel.watch();

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
    await sender.disconnectUser();
  });
});
