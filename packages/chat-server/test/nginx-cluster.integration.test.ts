import type { Event } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChatServer } from '../src/testing/harness.ts';
import {
  connectUser,
  contractEnvOn,
  createUsers,
  disconnectClients,
  type ContractEnv,
  uniqueId,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';
import { NGINX_BINARY, startNginx, type RunningNginx } from './support/nginx.ts';
import { startTwoNodes, type TwoNodes } from './two-nodes.ts';

/*
 * The shipped nginx site (docs/deploy/nginx.conf), unchanged but for its ports, in front of two chat nodes sharing
 * one database and Redis: what docs/deploy.md tells an operator to run. nginx balances round robin without
 * stickiness, so a client's REST calls and its websocket land on different nodes.
 */

const redisUrl = process.env.REDIS_URL;

const portOf = (node: TestChatServer) => Number(new URL(node.baseURL).port);

describe.runIf(NGINX_BINARY && redisUrl)(
  'two chat nodes behind the shipped nginx site',
  { timeout: 60_000 },
  () => {
    let cluster: TwoNodes;
    let nodes: TestChatServer[] = [];
    let nginx: RunningNginx | undefined;
    let env: ContractEnv;

    beforeAll(async () => {
      cluster = await startTwoNodes(redisUrl!, 'nginx');
      nodes = [...cluster.nodes];
      nginx = await startNginx([portOf(nodes[0]!), portOf(nodes[1]!)]);
      env = contractEnvOn({ ...nodes[0]!, baseURL: nginx.chatURL });
    });

    afterAll(async () => {
      if (env) await disconnectClients(env);
      await nginx?.stop();
      await cluster?.close();
    });

    /** The chat nodes nginx sent requests to, from its access log. */
    const upstreamsUsed = () =>
      new Set(
        nginx!
          .accessLog()
          .filter((line) => line.includes('/channels/'))
          .map((line) => line.split(' ')[0]),
      );

    it('delivers every message, in order, to a watcher whose REST calls and websocket land on different nodes', async () => {
      const namId = uniqueId('nam');
      const bacId = uniqueId('bac');
      await createUsers(env, [namId, bacId]);
      const nam = await connectUser(env, namId);
      const bac = await connectUser(env, bacId);
      const channelId = uniqueId('qua-nginx');
      const namChannel = await watchChannel(nam, 'messaging', channelId, {
        members: [namId, bacId],
      });
      // Several watches: round robin sends them to both nodes, and each must reach the node holding bac's socket.
      const bacChannel = await watchChannel(bac, 'messaging', channelId);
      for (let i = 0; i < 3; i++) await bacChannel.watch();

      const received: string[] = [];
      bacChannel.on('message.new', (event: Event) => {
        if (event.message?.text) received.push(event.message.text);
      });
      const texts = Array.from({ length: 30 }, (_, i) => `Tin số ${i + 1}`);
      for (const text of texts.slice(0, -1)) await namChannel.sendMessage({ text });
      // The wait starts before the last send only: thirty sends on a loaded machine outlast one event's timeout.
      const last = waitForEvent(bacChannel, 'message.new', (e) => e.message?.text === texts.at(-1));
      await namChannel.sendMessage({ text: texts.at(-1)! });
      await last;
      expect(received).toEqual(texts);
      expect(upstreamsUsed()).toEqual(new Set(nodes.map((node) => `127.0.0.1:${portOf(node)}`)));
    });

    /** Waits (bounded) until the nodes hold `total` sockets between them: closes reach the servers a moment later. */
    async function socketsSettle(total: number): Promise<number[]> {
      const deadline = Date.now() + 5_000;
      let counts = nodes.map((node) => node.socketCount());
      while (counts.reduce((a, b) => a + b, 0) !== total && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        counts = nodes.map((node) => node.socketCount());
      }
      return counts;
    }

    it('moves the clients of a node that shuts down to the other one, and loses no acknowledged message', async () => {
      await disconnectClients(env);
      const namId = uniqueId('nam');
      const bacId = uniqueId('bac');
      await createUsers(env, [namId, bacId]);
      const nam = await connectUser(env, namId);
      const bac = await connectUser(env, bacId);
      const channelId = uniqueId('chuyen-nut');
      const namChannel = await watchChannel(nam, 'messaging', channelId, {
        members: [namId, bacId],
      });
      const bacChannel = await watchChannel(bac, 'messaging', channelId);
      const acknowledged: string[] = [];
      for (let i = 0; i < 5; i++)
        acknowledged.push((await namChannel.sendMessage({ text: `Trước ${i}` })).message.id);

      // The node holding bac's socket goes away: close nam first, so bac's is the only socket left.
      await nam.disconnectUser();
      expect((await socketsSettle(1)).sort()).toEqual([0, 1]);
      const leaving = nodes.find((node) => node.socketCount() === 1)!;
      const namAgain = await connectUser(env, namId);
      const namChannelAgain = await watchChannel(namAgain, 'messaging', channelId);
      const recovered = waitForEvent(bac, 'connection.recovered');
      await leaving.close();
      nodes = nodes.filter((node) => node !== leaving);
      await recovered;
      const arrived = waitForEvent(bacChannel, 'message.new', (e) => e.message?.text === 'Sau');
      acknowledged.push((await namChannelAgain.sendMessage({ text: 'Sau' })).message.id);
      await arrived;

      const stored = await bacChannel.query({ messages: { limit: 50 } });
      const ids = (stored.messages ?? []).map((message) => message.id);
      expect(ids).toEqual(acknowledged);
    });
  },
);
