import { describe, expect, it } from 'vitest';
import {
  expectStreamError,
  ids,
  sendText,
  twoMembers,
  useContractEnv,
  watchChannel,
} from './helpers.ts';

/*
 * Stream: a user banned from a channel may not post there until the ban ends, but keeps reading it. The channel list
 * (channels/query.ts `compileChannelFilter`) and the read check every other path uses (access/access.ts and
 * access/visibility.ts `readableChannel`) must agree on it: a channel listed but unreadable, or readable but never
 * listed, would be one rule applied two ways.
 */

const env = useContractEnv();

describe('a member banned from a channel', { timeout: 30_000 }, () => {
  it('still finds the channel in queryChannels and reads its messages, threads and reminders', async () => {
    const { aliceChannel, bobChannel, bob, bobId, channelId } = await twoMembers(env(), 'doc-cam');
    const parent = await sendText(aliceChannel, 'Tâm pháp tầng một');
    await sendText(bobChannel, 'Đệ tử ghi nhớ', { parent_id: parent.id });
    await bob.createReminder({ messageId: parent.id });
    await aliceChannel.banUser(bobId, { reason: 'phá rối' });

    const [listed] = await bob.queryChannels({ id: channelId }, {}, { message_limit: 10 });
    expect(listed?.cid).toBe(aliceChannel.cid);
    expect(ids(listed!.state.messages)).toContain(parent.id);
    expect(listed?.data?.own_capabilities).toContain('read-events');
    expect(listed?.data?.own_capabilities).not.toContain('send-message');

    const watched = await bobChannel.watch();
    expect(ids(watched.messages)).toContain(parent.id);
    expect((await bob.getMessage(parent.id)).message.id).toBe(parent.id);
    const { threads } = await bob.queryThreads({ watch: false });
    expect(threads.map((t) => t.id)).toContain(parent.id);
    const { reminders } = await bob.queryReminders({});
    expect(reminders.map((r) => r.message_id)).toEqual([parent.id]);

    await expectStreamError(sendText(bobChannel, 'Vẫn nói được?'), { code: 17, message: /banned/ });
  });

  it('loses the channel from the list and from every read once removed from it', async () => {
    const { aliceChannel, bob, bobId, channelId } = await twoMembers(env(), 'doc-roi');
    const message = await sendText(aliceChannel, 'Chuyện nội môn');
    await aliceChannel.banUser(bobId, {});
    await aliceChannel.removeMembers([bobId]);

    expect(await bob.queryChannels({ id: channelId })).toEqual([]);
    await expectStreamError(watchChannel(bob, 'messaging', channelId), { code: 17 });
    await expectStreamError(bob.getMessage(message.id), { code: 17 });
  });
});
