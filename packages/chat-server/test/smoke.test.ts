import { describe, expect, it } from 'vitest';
import type { UserResponse } from 'stream-chat';
import {
  connectUser,
  createUsers,
  newClient,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';

describe('minimal slice with the real client', () => {
  const env = useContractEnv();

  it('connects, upserts users, watches a channel and delivers message.new to another watcher', async () => {
    const aliceId = uniqueId('alice');
    const bobId = uniqueId('bob');
    await createUsers(env(), [
      { id: aliceId, name: 'Alice' },
      { id: bobId, name: 'Bob', tu_vi: 1234 } as UserResponse,
    ]);
    const alice = newClient(env());
    const connected = await alice.connectUser({ id: aliceId }, env().admin.createToken(aliceId));
    expect(connected?.me?.mutes).toEqual([]);
    const bob = await connectUser(env(), bobId);
    const channelId = uniqueId('general');
    await watchChannel(alice, 'messaging', channelId, {
      members: [aliceId, bobId],
      name: 'Chung',
    });
    const bobChannel = await watchChannel(bob, 'messaging', channelId);

    const received = waitForEvent(bob, 'message.new');
    const sent = await alice.channel('messaging', channelId).sendMessage({ text: 'Chào đạo hữu' });
    const event = await received;

    expect(event.message?.id).toBe(sent.message.id);
    expect(event.message?.text).toBe('Chào đạo hữu');
    expect(bobChannel.state.messages.at(-1)?.text).toBe('Chào đạo hữu');
    const channels = await bob.queryChannels({ members: { $in: [bobId] } });
    expect(channels.map((channel) => channel.cid)).toEqual([`messaging:${channelId}`]);
  });
});
