import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  type ContractEnv,
  uniqueId,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';
import { useTwoNodes } from './two-nodes.ts';

const redisUrl = process.env.REDIS_URL;

if (redisUrl) {
  describe('two nodes sharing a database and Redis pub/sub', () => {
    const cluster = useTwoNodes(redisUrl, 'cluster');

    it('delivers a message sent through one node to a watcher connected to the other', async () => {
      const [a, b] = cluster().envs as [ContractEnv, ContractEnv];
      const namId = uniqueId('nam');
      const bacId = uniqueId('bac');
      await createUsers(a, [namId, bacId]);
      const nam = await connectUser(a, namId);
      const bac = await connectUser(b, bacId);
      const channelId = uniqueId('hai-mien');
      const namChannel = await watchChannel(nam, 'messaging', channelId, {
        members: [namId, bacId],
      });
      const bacChannel = await watchChannel(bac, 'messaging', channelId);

      const arrived = waitForEvent(bacChannel, 'message.new');
      const sent = await namChannel.sendMessage({ text: 'Chào từ nút A' });
      expect((await arrived).message?.id).toBe(sent.message.id);
      expect(bacChannel.state.messages.at(-1)?.text).toBe('Chào từ nút A');
    });
  });
} else {
  describe('two nodes sharing a database and Redis pub/sub', () => {
    it.todo('runs when REDIS_URL is set (skipped: no Redis configured)');
  });
}
