import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  fallbackClient,
  sendText,
  uniqueId,
  waitForEvent,
  watchChannel,
  type ContractEnv,
} from './helpers.ts';
import { useTwoNodes } from '../two-nodes.ts';

const redisUrl = process.env.REDIS_URL;

/*
 * A long-poll connection is a hub connection like a websocket one, so the cluster's pub/sub reaches it as well. Both
 * nodes share one database (a SQLite file in WAL mode, or one PostgreSQL schema) and one Redis key prefix.
 */
describe.skipIf(!redisUrl)('the long-poll fallback on a two-node cluster', () => {
  const cluster = useTwoNodes(redisUrl!, 'lp-cluster');

  it('delivers a message sent through one node to a long-poll user connected to the other', async () => {
    const [a, b] = cluster().envs as [ContractEnv, ContractEnv];
    const namId = uniqueId('lp-nam');
    const bacId = uniqueId('lp-bac');
    await createUsers(a, [namId, bacId]);
    // The websocket fails and the client falls back to long-polling node A.
    const nam = fallbackClient(a);
    await nam.connectUser({ id: namId }, a.admin.createToken(namId));
    expect(nam.wsFallback?.isHealthy()).toBe(true);
    const bac = await connectUser(b, bacId);
    const channelId = uniqueId('lp-hai-nut');
    const bacChannel = await watchChannel(bac, 'messaging', channelId, { members: [namId, bacId] });
    await watchChannel(nam, 'messaging', channelId);

    const arrived = waitForEvent(nam, 'message.new', (event) => event.user?.id === bacId);
    const sent = await sendText(bacChannel, 'Gửi từ nút B');
    expect((await arrived).message?.id).toBe(sent.id);
  });
});
