import type { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { useTwoNodes } from '../two-nodes.ts';
import {
  channelWithMembers,
  connectUser,
  sendText,
  uniqueId,
  waitForEvent,
  type ContractEnv,
} from './helpers.ts';

const redisUrl = process.env.REDIS_URL;

/*
 * The channel state a node shares between viewers without a membership (src/chat/core/channels/shared-state.ts) must
 * follow what happens through the other node too: a read announced there moves this node's channel stamp over Redis,
 * and a member coming online there changes the online flags this node reads from the cluster's presence.
 */
describe.skipIf(!redisUrl)('shared channel states on a two-node cluster', () => {
  const cluster = useTwoNodes(redisUrl!, 'shared-state');

  const query = (client: StreamChat, channelId: string) =>
    client.post<Record<string, unknown>>(
      `${client.baseURL}/channels/messaging/${channelId}/query`,
      {
        watch: true,
        state: true,
        presence: false,
        messages: { limit: 25 },
      },
    );

  it('shows a viewer on one node the read and the arrival of members on the other on the next watch', async () => {
    const [a, b] = cluster().envs as [ContractEnv, ContractEnv];
    // A messaging channel that lets any user read it, so a viewer without a membership sees its read states.
    const { channelId, members } = await channelWithMembers(a, 'cum-chia-se', {
      users: ['cum-chia-se-an', 'cum-chia-se-binh'],
    });
    const [an, binh] = members as [(typeof members)[0], (typeof members)[0]];
    await a.admin.channel('messaging', channelId).updatePartial({
      set: { config_overrides: { grants: { user: ['read-channel'] } } },
    } as never);
    await sendText(an.channel, 'Tin từ nút A');
    const viewer = await connectUser(b, uniqueId('cum-chia-se-xem'));
    const unreadOfBinh = async () => {
      const reads = (await query(viewer, channelId)).read as {
        user: { id: string };
        unread_messages: number;
      }[];
      return reads.find((entry) => entry.user.id === binh.id)?.unread_messages;
    };
    await query(viewer, channelId);
    expect(await unreadOfBinh()).toBe(1);

    const read = waitForEvent(viewer, 'message.read');
    await binh.channel.markRead();
    await read;
    expect(await unreadOfBinh()).toBe(0);

    // An, online on node A, goes away and comes back there: node B reads it from the cluster's presence.
    const onlineOfAn = async () => {
      const list = (await query(viewer, channelId)).members as {
        user_id: string;
        user: { online: boolean };
      }[];
      return list.find((member) => member.user_id === an.id)?.user.online;
    };
    expect(await onlineOfAn()).toBe(true);
    await an.client.disconnectUser();
    await expect.poll(onlineOfAn, { timeout: 5_000 }).toBe(false);
    await connectUser(a, an.id);
    await expect.poll(onlineOfAn, { timeout: 5_000 }).toBe(true);
  });
});
