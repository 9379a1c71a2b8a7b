import type { Event, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import type { TestChatServer } from '../src/testing/harness.ts';
import {
  connectUser,
  createUsers,
  type ContractEnv,
  uniqueId,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';
import { useTwoNodes } from './two-nodes.ts';

/*
 * A REST call naming the caller's connection_id may reach another node than the socket (a balancer without sticky
 * sessions): the nodes route the watch or presence request to the one holding the socket
 * (src/realtime/connection-router.ts).
 */

const redisUrl = process.env.REDIS_URL;

describe.runIf(redisUrl)(
  'REST calls naming a socket held by another node',
  { timeout: 30_000 },
  () => {
    const cluster = useTwoNodes(redisUrl!, 'route');

    /** `client`'s REST calls go to `node` from now on; its websocket stays where it is. */
    const restThrough = (client: StreamChat, node: TestChatServer) => {
      client.baseURL = node.baseURL;
    };

    it('makes the socket on the other node watch the channel, count as a watcher and receive its events', async () => {
      const [a, b] = cluster().envs as [ContractEnv, ContractEnv];
      const namId = uniqueId('nam');
      const bacId = uniqueId('bac');
      await createUsers(a, [namId, bacId]);
      const nam = await connectUser(a, namId);
      const bac = await connectUser(b, bacId);
      restThrough(bac, cluster().nodes[0]!);
      const channelId = uniqueId('hai-nut');
      const namChannel = await watchChannel(nam, 'messaging', channelId, {
        members: [namId, bacId],
      });

      const started = waitForEvent(namChannel, 'user.watching.start', (e) => e.user?.id === bacId);
      const bacChannel = await watchChannel(bac, 'messaging', channelId);
      await started;
      expect(bacChannel.state.watcher_count).toBe(2);

      const arrived = waitForEvent(bacChannel, 'message.new');
      const sent = await namChannel.sendMessage({ text: 'Qua nút khác' });
      expect((await arrived).message?.id).toBe(sent.message.id);

      const stopped = waitForEvent(namChannel, 'user.watching.stop', (e) => e.user?.id === bacId);
      await bacChannel.stopWatching();
      await stopped;
    });

    it('follows presence for the socket on the other node', async () => {
      const [a, b] = cluster().envs as [ContractEnv, ContractEnv];
      const watcherId = uniqueId('nguoi-theo');
      const friendId = uniqueId('ban');
      await createUsers(a, [watcherId, friendId]);
      const watcher = await connectUser(b, watcherId);
      restThrough(watcher, cluster().nodes[0]!);
      await watcher.queryUsers({ id: { $in: [friendId] } }, {}, { presence: true });

      const online = waitForEvent(
        watcher,
        'user.presence.changed',
        (e: Event) => e.user?.id === friendId && e.user?.online === true,
      );
      await connectUser(a, friendId);
      await online;
    });

    it('does nothing with a connection id that belongs to someone else', async () => {
      const [a, b] = cluster().envs as [ContractEnv, ContractEnv];
      const victimId = uniqueId('nan-nhan');
      const thiefId = uniqueId('ke-trom');
      await createUsers(a, [victimId, thiefId]);
      const victim = await connectUser(b, victimId);
      const thief = await connectUser(a, thiefId);
      const channelId = uniqueId('rieng');
      await watchChannel(thief, 'messaging', channelId, { members: [thiefId] });
      const victimEvents: string[] = [];
      victim.on((event: Event) => {
        if (event.cid === `messaging:${channelId}`) victimEvents.push(event.type);
      });
      // The thief names the victim's socket on a watch: the node holding it must refuse to make it watch.
      thief.wsConnection!.connectionID = victim.wsConnection!.connectionID;
      await thief.channel('messaging', channelId).watch();
      const own = waitForEvent(thief, 'message.new');
      await thief.channel('messaging', channelId).sendMessage({ text: 'Không ai khác thấy' });
      await own;
      expect(victimEvents).toEqual([]);
    });
  },
);
