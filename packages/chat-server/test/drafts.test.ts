import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';

describe('drafts', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  /** Alice on two devices and Bob, all in one channel. */
  async function draftScene(prefix: string) {
    const scene = await twoMembers(env(), prefix, { alice: { name: 'Hàn Lập' } });
    const aliceTablet = await connectUser(env(), scene.aliceId);
    return { ...scene, aliceTablet };
  }

  it('saves a channel draft, tells the owner’s other connections, and returns it in the owner’s channel state only', async () => {
    const { alice, aliceTablet, aliceChannel, bobChannel } = await draftScene('save');
    const seen = waitForEvent(aliceTablet, 'draft.updated');
    const draftId = randomUUID();
    const { draft } = await aliceChannel.createDraft({
      id: draftId,
      text: 'Đạo hữu xin dừng bước',
      mentioned_users: [],
      sect: 'Thanh Vân',
    } as Parameters<typeof aliceChannel.createDraft>[0]);
    const event = await seen;

    expect(draft).toMatchObject({
      channel_cid: aliceChannel.cid,
      message: { id: draftId, text: 'Đạo hữu xin dừng bước', sect: 'Thanh Vân' },
    });
    expect(draft.parent_id).toBeUndefined();
    expect(event.draft).toMatchObject({ channel_cid: aliceChannel.cid, message: { id: draftId } });

    const fetched = await aliceChannel.getDraft();
    expect(fetched.draft?.message.text).toBe('Đạo hữu xin dừng bước');

    const aliceState = await alice.queryChannels({ cid: aliceChannel.cid! });
    expect(aliceState[0]?.messageComposer.draftId).toBe(draftId);
    const raw = await aliceChannel.query({});
    expect(raw.draft?.message.id).toBe(draftId);
    const bobState = await bobChannel.query({});
    expect(bobState.draft).toBeUndefined();
    await expectStreamError(bobChannel.getDraft(), { code: 16, status: 404 });

    // Saving again replaces the draft.
    await aliceChannel.createDraft({ id: draftId, text: 'Sửa lại' });
    expect((await aliceChannel.getDraft()).draft?.message.text).toBe('Sửa lại');
  });

  it('keeps a thread draft apart from the channel draft, with its parent, quoted message and poll', async () => {
    const { alice, aliceChannel } = await draftScene('thread');
    const parent = await sendText(aliceChannel, 'Luận đạo');
    const quoted = await sendText(aliceChannel, 'Trích dẫn');
    const { poll } = await alice.createPoll({ name: 'Hỏi', options: [{ text: 'Có' }] });

    await aliceChannel.createDraft({ id: randomUUID(), text: 'Kênh' });
    const { draft } = await aliceChannel.createDraft({
      id: randomUUID(),
      text: 'Luồng',
      parent_id: parent.id,
      quoted_message_id: quoted.id,
      poll_id: poll.id,
    });
    expect(draft).toMatchObject({
      parent_id: parent.id,
      parent_message: { id: parent.id, text: 'Luận đạo' },
      quoted_message: { id: quoted.id, text: 'Trích dẫn' },
      message: { text: 'Luồng', parent_id: parent.id, poll_id: poll.id },
    });
    expect((await aliceChannel.getDraft({ parent_id: parent.id })).draft?.message.text).toBe(
      'Luồng',
    );
    expect((await aliceChannel.getDraft()).draft?.message.text).toBe('Kênh');

    // Thread responses carry the viewer's thread draft, which initialises the thread composer.
    await sendText(aliceChannel, 'Trả lời', { parent_id: parent.id });
    const thread = await alice.getThread(parent.id);
    expect(thread.messageComposer.draftId).toBe(draft.message.id);
  });

  it('deletes a draft with draft.deleted for the owner’s connections', async () => {
    const { aliceTablet, aliceChannel } = await draftScene('delete');
    const parent = await sendText(aliceChannel, 'Gốc');
    await aliceChannel.createDraft({ id: randomUUID(), text: 'Nháp', parent_id: parent.id });
    const seen = waitForEvent(aliceTablet, 'draft.deleted');
    await aliceChannel.deleteDraft({ parent_id: parent.id });
    const event = await seen;
    expect(event.draft).toMatchObject({ channel_cid: aliceChannel.cid, parent_id: parent.id });
    await expectStreamError(aliceChannel.getDraft({ parent_id: parent.id }), { code: 16 });
    await expectStreamError(aliceChannel.deleteDraft({ parent_id: parent.id }), { code: 16 });
  });

  it('queries the user’s drafts by channel and thread, newest first, with cursors', async () => {
    const { alice, bob, aliceChannel } = await draftScene('query');
    const other = await watchChannel(alice, 'messaging', uniqueId('query-2'), {
      members: [alice.userID!],
    });
    const parent = await sendText(aliceChannel, 'Gốc');
    await aliceChannel.createDraft({ id: randomUUID(), text: 'một' });
    await other.createDraft({ id: randomUUID(), text: 'hai' });
    await aliceChannel.createDraft({ id: randomUUID(), text: 'ba', parent_id: parent.id });

    const all = await alice.queryDrafts({ sort: [{ created_at: -1 }] });
    expect(all.drafts.map((d) => d.message.text)).toEqual(['ba', 'hai', 'một']);

    const inChannel = await alice.queryDrafts({ filter: { channel_cid: aliceChannel.cid! } });
    expect(inChannel.drafts.map((d) => d.message.text).sort()).toEqual(['ba', 'một']);
    const threads = await alice.queryDrafts({ filter: { parent_id: { $exists: true } } });
    expect(threads.drafts.map((d) => d.message.text)).toEqual(['ba']);

    const page1 = await alice.queryDrafts({ limit: 2 });
    expect(page1.drafts).toHaveLength(2);
    const page2 = await alice.queryDrafts({ limit: 2, next: page1.next });
    expect(page2.drafts.map((d) => d.message.text)).toEqual(['một']);
    expect(page2.next).toBeUndefined();

    expect((await bob.queryDrafts({})).drafts).toEqual([]);
  });

  it('refuses bad drafts with a clear error', async () => {
    const { bob, aliceChannel } = await draftScene('bad');
    await expectStreamError(
      aliceChannel.createDraft({ id: randomUUID(), text: 42 as unknown as string }),
      { code: 4, status: 400 },
    );
    await expectStreamError(
      aliceChannel.createDraft({ id: randomUUID(), text: 'x', parent_id: 'missing' }),
      { code: 4, message: /parent message/ },
    );
    const { poll } = await bob.createPoll({ name: 'Của Bob', options: [{ text: 'A' }] });
    await expectStreamError(
      aliceChannel.createDraft({ id: randomUUID(), text: 'x', poll_id: poll.id }),
      { code: 4, message: /poll/ },
    );
    const stranger = await connectUser(env(), uniqueId('bad-c'));
    await expectStreamError(
      stranger.channel('messaging', aliceChannel.id!).createDraft({ id: randomUUID(), text: 'x' }),
      { code: 17 },
    );
  });
  it('answers a missing draft as Stream does: code 16, HTTP 404, the failed operation and its reason', async () => {
    const { aliceChannel } = await draftScene('missing');
    const parent = await sendText(aliceChannel, 'Gốc');
    await expectStreamError(aliceChannel.getDraft(), {
      code: 16,
      status: 404,
      message: /: GetDraft failed with error: "draft not found"$/,
    });
    await expectStreamError(aliceChannel.getDraft({ parent_id: parent.id }), {
      code: 16,
      status: 404,
      message: /: GetDraft failed with error: "draft not found"$/,
    });
    await expectStreamError(aliceChannel.deleteDraft(), {
      code: 16,
      status: 404,
      message: /: DeleteDraft failed with error: "draft not found"$/,
    });
  });
});
