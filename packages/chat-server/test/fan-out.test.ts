import { describe, expect, it } from 'vitest';
import {
  connectRawSocket,
  connectUser,
  createChannelAsServer,
  createUsers,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './contract/helpers.ts';

describe('fan-out through the hub', () => {
  const env = useContractEnv();

  it('delivers a burst of sends to every watcher as separate frames, in order, with identical bytes', async () => {
    const senderId = uniqueId('sender');
    const watcherIds = ['w1', 'w2', 'w3'].map((prefix) => uniqueId(prefix));
    await createUsers(env(), [senderId, ...watcherIds]);
    const channelId = uniqueId('dai-dien');
    await createChannelAsServer(env(), 'livestream', channelId, senderId, { members: [senderId] });

    const watchers = await Promise.all(watcherIds.map((id) => connectRawSocket(env(), id)));
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

    const received = await Promise.all(watchers.map((w) => w.framesOf('message.new', 30)));
    for (const frames of received) {
      expect(frames.map((f) => (f.message as { id: string }).id)).toEqual(order);
    }
    expect(JSON.stringify(received[0])).toBe(JSON.stringify(received[2]));
    for (const w of watchers) w.socket.close();
  });
});
