import { describe, expect, it } from 'vitest';
import type { Event } from 'stream-chat';
import {
  channelWithMembers,
  connectUser,
  expectStreamError,
  nth,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

describe('shadow bans', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  /** A channel of three watching members (owner, the shadow-banned one, a bystander) with a shared thread. */
  async function scene(prefix: string) {
    const shared = await channelWithMembers(env(), prefix, {
      users: ['chu-kenh', 'bong-ma', 'nguoi-xem'],
    });
    const [owner, ghost, viewer] = [0, 1, 2].map((i) => nth(shared.members, i));
    return { ...shared, owner: owner!, ghost: ghost!, viewer: viewer! };
  }

  it('shows a shadow-banned member their messages as sent and nobody else, on every read path', async () => {
    const { owner, ghost, viewer, cid } = await scene('cam-an');
    const seenByViewer: Event[] = [];
    viewer.client.on('message.new', (event) => seenByViewer.push(event));
    await owner.channel.shadowBan(ghost.id, {});

    const ownEcho = waitForEvent(ghost.channel, 'message.new', (e) => e.user?.id === ghost.id);
    const sent = await sendText(ghost.channel, 'Lời của bóng ma linh thạch');
    expect(sent.shadowed).toBe(false);
    expect((await ownEcho).message?.id).toBe(sent.id);
    // A message sent after it proves the viewer's socket is caught up.
    const marker = waitForEvent(viewer.channel, 'message.new', (e) => e.user?.id === owner.id);
    await sendText(owner.channel, 'Sau đó');
    await marker;
    expect(seenByViewer.map((e) => e.message?.id)).not.toContain(sent.id);

    // The author sees it everywhere.
    expect((await ghost.client.getMessage(sent.id)).message.shadowed).toBe(false);
    const [ghostState] = await ghost.client.queryChannels({ cid });
    expect(ghostState?.state.messages.map((m) => m.id)).toContain(sent.id);

    // Nobody else sees it anywhere.
    await expectStreamError(viewer.client.getMessage(sent.id), { code: 16 });
    const [viewerState] = await viewer.client.queryChannels({ cid });
    expect(viewerState?.state.messages.map((m) => m.id)).not.toContain(sent.id);
    const fetched = await viewer.client.channel('messaging', viewer.channel.id).query({
      messages: { limit: 50 },
    });
    expect(fetched.messages.map((m) => m.id)).not.toContain(sent.id);
    const search = await viewer.client.search({ cid }, 'bóng');
    expect(search.results.map((r) => r.message.id)).not.toContain(sent.id);
    const ownSearch = await ghost.client.search({ cid }, 'bóng');
    expect(ownSearch.results.map((r) => r.message.id)).toContain(sent.id);
    // The member object says shadow_banned, as on Stream; banned stays false so writing works.
    const { members } = await owner.channel.queryMembers({ id: ghost.id });
    expect(members[0]).toMatchObject({ banned: false, shadow_banned: true });
  });

  it('keeps shadowed replies out of others\u2019 threads and shadowed messages out of their unread counts', async () => {
    const { owner, ghost, viewer, cid } = await scene('cam-an-luong');
    const parent = await sendText(owner.channel, 'Hỏi đạo');
    // The viewer takes part in the thread, so it is in their thread list.
    const own = await sendText(viewer.channel, 'Ta cũng hỏi', { parent_id: parent.id });
    await viewer.channel.markRead();
    await owner.channel.shadowBan(ghost.id, {});
    const reply = await sendText(ghost.channel, 'Đáp trong bóng tối', { parent_id: parent.id });
    const loud = await sendText(ghost.channel, 'Không ai nghe thấy');

    const replies = await viewer.channel.getReplies(parent.id, { limit: 10 });
    expect(replies.messages.map((m) => m.id)).not.toContain(reply.id);
    const ownReplies = await ghost.channel.getReplies(parent.id, { limit: 10 });
    expect(ownReplies.messages.map((m) => m.id)).toContain(reply.id);

    const unread = await viewer.client.getUnreadCount();
    const inChannel = unread.channels.find((c) => c.channel_id === cid);
    expect(inChannel?.unread_count ?? 0).toBe(0);
    const { threads } = await viewer.client.queryThreads({ limit: 10, reply_limit: 10 });
    const thread = threads.find((t) => t.id === parent.id);
    const listed = thread?.state.getLatestValue().replies.map((m) => m.id) ?? [];
    expect(listed).toContain(own.id);
    expect(listed).not.toContain(reply.id);
    expect(listed).not.toContain(loud.id);
  });

  it('lifts a shadow ban with removeShadowBan: later messages reach everyone again', async () => {
    const { owner, ghost, viewer } = await scene('giai-an');
    await owner.channel.shadowBan(ghost.id, {});
    const hidden = await sendText(ghost.channel, 'Trong bóng tối');
    await owner.channel.removeShadowBan(ghost.id);
    const heard = waitForEvent(viewer.channel, 'message.new', (e) => e.user?.id === ghost.id);
    const visible = await sendText(ghost.channel, 'Ra ánh sáng');
    expect((await heard).message?.id).toBe(visible.id);
    // What was sent during the ban stays the author's alone.
    await expectStreamError(viewer.client.getMessage(hidden.id), { code: 16 });
  });

  it('shadow-bans app-wide: the user is not told, and their messages in every channel are theirs alone', async () => {
    const { owner, ghost, viewer } = await scene('an-toan-cuc');
    const modId = uniqueId('truong-lao');
    await env().admin.upsertUser({ id: modId, role: 'moderator' });
    const mod = await connectUser(env(), modId);
    const told: Event[] = [];
    ghost.client.on('user.banned', (event) => told.push(event));
    await mod.shadowBan(ghost.id, {});
    const sent = await sendText(ghost.channel, 'Không ai thấy');
    await expectStreamError(viewer.client.getMessage(sent.id), { code: 16 });
    await expectStreamError(owner.client.getMessage(sent.id), { code: 16 });
    expect((await ghost.client.getMessage(sent.id)).message.id).toBe(sent.id);
    const again = await connectUser(env(), ghost.id);
    expect(again.user?.banned).toBe(false);
    expect(told).toEqual([]);
  });
});
