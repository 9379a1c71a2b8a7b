import { randomUUID } from 'node:crypto';
import type { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  rawRequest,
  sendText,
  signJwt,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

interface TaskShape {
  id: string;
  task_id: string;
  status: string;
  created_at: string;
  updated_at: string;
  result?: Record<string, { status: string; error?: string }>;
}

/** Reads the task until it has finished; bounded, so a task that never ends fails the test instead of hanging it. */
async function finishedTask(admin: StreamChat, taskId: string): Promise<TaskShape> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const task = (await admin.getTask(taskId)) as unknown as TaskShape;
    if (task.status === 'completed' || task.status === 'failed') return task;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} did not finish`);
}

describe('batch deletes run as background tasks', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('deletes many channels at once and reports each one in the task result', async () => {
    const ownerId = uniqueId('chuong-mon');
    const watcher = await connectUser(env(), ownerId);
    const [first, second] = [uniqueId('dien-a'), uniqueId('dien-b')];
    await createChannelAsServer(env(), 'messaging', first, ownerId, { members: [ownerId] });
    await createChannelAsServer(env(), 'messaging', second, ownerId, { members: [ownerId] });
    const watched = await watchChannel(watcher, 'messaging', first);
    const deleted = waitForEvent(watched, 'channel.deleted');
    const missing = `messaging:${uniqueId('khong-co')}`;

    const { task_id } = await env().admin.deleteChannels(
      [`messaging:${first}`, `messaging:${second}`, missing],
      { hard_delete: true },
    );
    expect(task_id).toEqual(expect.any(String));
    const task = await finishedTask(env().admin, task_id!);

    expect(task).toMatchObject({ id: task_id, task_id, status: 'completed' });
    expect(task.result?.[`messaging:${first}`]).toEqual({ status: 'ok' });
    expect(task.result?.[`messaging:${second}`]).toEqual({ status: 'ok' });
    expect(task.result?.[missing]?.status).toBe('error');
    await deleted;
    const left = await env().admin.queryChannels({ cid: { $in: [`messaging:${first}`] } });
    expect(left).toHaveLength(0);
  });

  it('keeps the history of channels deleted in bulk with skip_truncate', async () => {
    const ownerId = uniqueId('chu-nhan');
    await createUsers(env(), [ownerId]);
    const channelId = uniqueId('luu-giu');
    await createChannelAsServer(env(), 'messaging', channelId, ownerId, { members: [ownerId] });
    const server = env().admin.channel('messaging', channelId);
    await server.sendMessage({ text: 'Còn mãi', user_id: ownerId });
    const { task_id } = await env().admin.deleteChannels([`messaging:${channelId}`], {
      skip_truncate: true,
    } as never);
    expect((await finishedTask(env().admin, task_id!)).status).toBe('completed');
    const again = env().admin.channel('messaging', channelId, { created_by_id: ownerId });
    const state = await again.query({ messages: { limit: 5 } });
    expect(state.messages.map((m) => m.text)).toEqual(['Còn mãi']);
  });

  it('deletes in bulk from a client at once, each channel only if that user may delete it, as Stream answers a client', async () => {
    const ownerId = uniqueId('chu-dong');
    const memberId = uniqueId('de-tu');
    const owner = await connectUser(env(), ownerId);
    const member = await connectUser(env(), memberId);
    const mine = await watchChannel(owner, 'messaging', uniqueId('cua-ta'), {
      members: [ownerId, memberId],
    });
    const theirs = `messaging:${uniqueId('cua-nguoi')}`;
    await createChannelAsServer(env(), 'messaging', theirs.split(':')[1]!, ownerId, {
      members: [ownerId],
    });

    // A plain member may not delete the channel; one they cannot read is no different.
    const refused = (await member.deleteChannels([mine.cid, theirs])) as unknown as {
      result: Record<string, { status: string }>;
      task_id?: string;
    };
    expect(refused.task_id).toBeUndefined();
    expect(refused.result[mine.cid]?.status).toBe('error');
    expect(refused.result[theirs]?.status).toBe('error');
    expect(await env().admin.queryChannels({ cid: { $in: [mine.cid, theirs] } })).toHaveLength(2);

    const done = (await owner.deleteChannels([mine.cid, theirs], {
      hard_delete: true,
    })) as unknown as {
      result: Record<string, { status: string }>;
    };
    expect(done.result).toEqual({ [mine.cid]: { status: 'ok' }, [theirs]: { status: 'ok' } });
    expect(await env().admin.queryChannels({ cid: { $in: [mine.cid, theirs] } })).toEqual([]);
  });

  it('refuses too many cids, a malformed cid and an unknown task', async () => {
    const userId = uniqueId('de-tu');
    const user = await connectUser(env(), userId);
    const tooMany = Array.from({ length: 101 }, (_, index) => `messaging:c${index}`);
    await expectStreamError(env().admin.deleteChannels(tooMany), {
      code: 4,
      message: /cids must have at most 100 items/,
    });
    await expectStreamError(env().admin.deleteChannels(['khong-phai-cid']), {
      code: 4,
      message: /cids\[0\]/,
    });
    await expectStreamError(env().admin.getTask(randomUUID()), { code: 16, status: 404 });
    await expectStreamError(user.getTask(randomUUID()), { code: 17, status: 403 });
  });

  it('soft-deletes users with their messages and tells the watchers with user.deleted', async () => {
    const authorId = uniqueId('ta-dao');
    const witnessId = uniqueId('nhan-chung');
    const author = await connectUser(env(), authorId);
    const witness = await connectUser(env(), witnessId);
    const channelId = uniqueId('quan-tro');
    const channel = await watchChannel(author, 'messaging', channelId, {
      members: [authorId, witnessId],
    });
    const sent = await sendText(channel, 'Tà thuật');
    await watchChannel(witness, 'messaging', channelId);
    const told = waitForEvent(witness, 'user.deleted', (event) => event.user?.id === authorId);

    const { task_id } = await env().admin.deleteUsers([authorId], {
      user: 'soft',
      messages: 'soft',
    });
    const task = await finishedTask(env().admin, task_id);

    expect(task.result?.[authorId]).toEqual({ status: 'ok' });
    const event = await told;
    expect(event.user?.deleted_at).toEqual(expect.any(String));
    expect(event.mark_messages_deleted).toBe(true);
    expect(event.hard_delete).toBe(false);
    const { message } = await env().admin.getMessage(sent.id);
    expect(message.type).toBe('deleted');
    const { users } = await env().admin.queryUsers({ id: authorId });
    expect(users).toHaveLength(0);
  });

  it('hard-deletes a user: their messages and row are gone and their channels pass to the new owner', async () => {
    const goneId = uniqueId('ma-dau');
    const heirId = uniqueId('ke-thua');
    await createUsers(env(), [goneId, heirId]);
    const channelId = uniqueId('ma-giao');
    await createChannelAsServer(env(), 'messaging', channelId, goneId, {
      members: [goneId, heirId],
    });
    const channel = env().admin.channel('messaging', channelId);
    const { message } = await channel.sendMessage({ text: 'Ma công', user_id: goneId });
    const { message: heirs } = await channel.sendMessage({ text: 'Chính đạo', user_id: heirId });
    await channel.sendReaction(heirs.id, { type: 'like', user_id: goneId });

    const { task_id } = await env().admin.deleteUsers([goneId], {
      user: 'hard',
      messages: 'hard',
      new_channel_owner_id: heirId,
    });
    const task = await finishedTask(env().admin, task_id);

    expect(task.result?.[goneId]).toEqual({ status: 'ok' });
    await expectStreamError(env().admin.getMessage(message.id), { code: 16 });
    const [state] = await env().admin.queryChannels({ cid: `messaging:${channelId}` });
    expect(state?.data?.created_by).toMatchObject({ id: heirId });
    expect(Object.keys(state?.state.members ?? {})).toEqual([heirId]);
    const { message: kept } = await env().admin.getMessage(heirs.id);
    expect(kept.reaction_counts ?? {}).toEqual({});
  });

  it('refuses a user token, too many users, bad modes and an unknown new owner', async () => {
    const userId = uniqueId('de-tu');
    await createUsers(env(), [userId]);
    const userToken = env().admin.createToken(userId);
    const asUser = await rawRequest(env(), {
      method: 'POST',
      path: '/users/delete',
      userId,
      token: userToken,
      body: { user_ids: [userId], user: 'soft' },
    });
    expectStreamErrorBody(asUser, 17, 403);
    const server = signJwt({ server: true }, env().server.apiSecret);
    const cases: [object, RegExp][] = [
      [{ user_ids: Array.from({ length: 101 }, (_, i) => `u${i}`) }, /user_ids/],
      [{ user_ids: [userId], user: 'xoa-sach' }, /user must be one of/],
      [{ user_ids: [userId], messages: 'xoa' }, /messages must be one of/],
      [{ user_ids: [userId], conversations: 'pruning' }, /conversations must be one of/],
      [{ user_ids: [userId], user: 'hard', messages: 'soft' }, /messages must be "hard"/],
      [{ user_ids: [userId], new_channel_owner_id: uniqueId('khong-co') }, /does not exist/],
      [{ user_ids: [] }, /user_ids must have at least 1 items/],
    ];
    for (const [body, message] of cases) {
      const response = await rawRequest(env(), {
        method: 'POST',
        path: '/users/delete',
        token: server,
        body,
      });
      expectStreamErrorBody(response, 4, 400);
      expect((response.body as { message: string }).message).toMatch(message);
    }
  });

  it('deletes one user with DELETE /users/{id}, server-side only', async () => {
    const userId = uniqueId('nghich-do');
    const user = await connectUser(env(), userId);
    await expectStreamError(user.deleteUser(userId), { code: 17, status: 403 });
    const { user: deleted } = await env().admin.deleteUser(userId, {
      mark_messages_deleted: true,
    });
    expect(deleted.id).toBe(userId);
    expect(deleted.deleted_at).toEqual(expect.any(String));
    await expectStreamError(env().admin.deleteUser(uniqueId('khong-co')), { code: 16 });
  });
});
