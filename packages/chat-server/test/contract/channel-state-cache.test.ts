import { describe, expect, it } from 'vitest';
import type { Channel } from 'stream-chat';
import {
  channelWithMembers,
  connectUser,
  ids,
  inMs,
  nth,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitUntilTime,
} from './helpers.ts';

/*
 * A channel's newest messages, pins and first member page are shared between viewers per channel version
 * (src/chat/core/channels/state-cache.ts). Each test first fills the shared rows with a viewer who sees the most,
 * then asks as a viewer who must see less, or after a write, and checks the answer is what the visibility rule and
 * the current data say.
 */

/** The state a client's watch (channel.query with watch and state, newest page) answers with. */
async function watchState(channel: Channel) {
  const state = await channel.query({ watch: true, state: true, messages: { limit: 25 } });
  return { messages: ids(state.messages), pinned: ids(state.pinned_messages ?? []), state };
}

describe('shared channel state', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('never shows a hide_history member what a full member of the same channel just loaded', async () => {
    const { channelId, alice, aliceChannel, bobChannel } = await twoMembers(env(), 'bo-nho-an');
    const before = await sendText(aliceChannel, 'Bí kíp trước khi Carol gia nhập');
    await alice.pinMessage(before.id);
    const carolId = uniqueId('bo-nho-an-c');
    const carol = await connectUser(env(), carolId);
    await aliceChannel.addMembers([carolId], undefined, { hide_history: true });
    const after = await sendText(aliceChannel, 'Lời chào Carol');
    await alice.pinMessage(after.id);

    const full = await watchState(bobChannel);
    expect(full.messages).toEqual(expect.arrayContaining([before.id, after.id]));
    expect(full.pinned).toEqual(expect.arrayContaining([before.id, after.id]));

    const carolChannel = carol.channel('messaging', channelId);
    const hidden = await watchState(carolChannel);
    expect(hidden.messages).toContain(after.id);
    expect(hidden.messages).not.toContain(before.id);
    expect(hidden.pinned).toEqual([after.id]);

    // The full member still sees everything after the restricted one asked.
    const again = await watchState(aliceChannel);
    expect(again.messages).toEqual(expect.arrayContaining([before.id, after.id]));
  });

  it("keeps a shadow-banned author's message theirs after the author loaded the shared rows", async () => {
    const shared = await channelWithMembers(env(), 'bong-ma-chung', {
      users: ['chu-kenh', 'bong-ma', 'nguoi-xem'],
    });
    const [owner, ghost, viewer] = [0, 1, 2].map((i) => nth(shared.members, i));
    await owner!.channel.shadowBan(ghost!.id, {});
    const hiddenMessage = await sendText(ghost!.channel, 'Lời thì thầm của bóng ma');
    const visible = await sendText(owner!.channel, 'Lời công khai');

    const own = await watchState(ghost!.channel);
    expect(own.messages).toEqual(expect.arrayContaining([hiddenMessage.id, visible.id]));
    const other = await watchState(viewer!.channel);
    expect(other.messages).toContain(visible.id);
    expect(other.messages).not.toContain(hiddenMessage.id);
    // A server-side query names nobody, so it is nobody's author either.
    const server = await env()
      .admin.channel('messaging', shared.channelId)
      .query({
        state: true,
        messages: { limit: 25 },
      });
    expect(ids(server.messages)).not.toContain(hiddenMessage.id);
  });

  it('shows an edit, a deletion and an unpin made right after a watch on the next watch', async () => {
    const { alice, aliceChannel, bobChannel } = await twoMembers(env(), 'sua-xoa');
    const edited = await sendText(aliceChannel, 'Bản nháp đầu');
    const removed = await sendText(aliceChannel, 'Sẽ bị xoá');
    const erased = await sendText(aliceChannel, 'Sẽ bị xoá hẳn');
    await alice.pinMessage(edited.id);
    const first = await watchState(bobChannel);
    expect(first.pinned).toEqual([edited.id]);

    await alice.updateMessage({ id: edited.id, text: 'Bản đã sửa' });
    await alice.deleteMessage(removed.id);
    await alice.deleteMessage(erased.id, true);
    await alice.unpinMessage(edited.id);

    const next = await watchState(bobChannel);
    const byId = new Map(next.state.messages.map((m) => [m.id, m]));
    expect(byId.get(edited.id)?.text).toBe('Bản đã sửa');
    expect(byId.get(removed.id)?.type).toBe('deleted');
    expect(byId.has(erased.id)).toBe(false);
    expect(next.pinned).toEqual([]);
  });

  it('shows a member added or removed right after a watch on the next watch', async () => {
    const { aliceChannel, bobId } = await twoMembers(env(), 'them-bot');
    const newcomer = uniqueId('them-bot-c');
    await connectUser(env(), newcomer);
    const first = await watchState(aliceChannel);
    expect(first.state.members.map((m) => m.user_id)).not.toContain(newcomer);

    await aliceChannel.addMembers([newcomer]);
    const added = await watchState(aliceChannel);
    expect(added.state.members.map((m) => m.user_id)).toContain(newcomer);

    await aliceChannel.removeMembers([bobId]);
    const removed = await watchState(aliceChannel);
    expect(removed.state.members.map((m) => m.user_id)).not.toContain(bobId);
  });

  it('drops a pin that lapsed after the pins were loaded', async () => {
    const { alice, aliceChannel, bobChannel } = await twoMembers(env(), 'ghim-het-han');
    const lasting = await sendText(aliceChannel, 'Ghim mãi');
    const brief = await sendText(aliceChannel, 'Ghim chốc lát');
    await alice.pinMessage(lasting.id);
    const expiresAt = inMs(1_500);
    await alice.pinMessage(brief.id, expiresAt);
    const first = await watchState(bobChannel);
    expect(first.pinned).toEqual(expect.arrayContaining([lasting.id, brief.id]));

    await waitUntilTime(Date.parse(expiresAt) + 50);
    const later = await watchState(bobChannel);
    expect(later.pinned).toEqual([lasting.id]);
  });

  it('answers a watch of a channel nobody wrote to since with the same state as before', async () => {
    const { aliceChannel, bobChannel } = await twoMembers(env(), 'yen-tinh');
    await sendText(aliceChannel, 'Một');
    await sendText(bobChannel, 'Hai');
    const first = await watchState(aliceChannel);
    const second = await watchState(aliceChannel);
    expect(second.messages).toEqual(first.messages);
    expect(second.state.members.map((m) => m.user_id)).toEqual(
      first.state.members.map((m) => m.user_id),
    );
    expect(second.messages).toHaveLength(2);
  });
});
