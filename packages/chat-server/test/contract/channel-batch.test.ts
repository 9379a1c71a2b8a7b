import type { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  expectStreamError,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
  type ContractEnv,
} from './helpers.ts';

interface BatchResult {
  status: string;
  operation: string;
  success_channels_count: number;
  failed_channels: { cid: string; error: string | null }[];
  finished_at: string;
}

/** Reads the task until it has finished; bounded, so a task that never ends fails the test instead of hanging it. */
async function batchResult(admin: StreamChat, taskId: string | undefined): Promise<BatchResult> {
  if (!taskId) throw new Error('the batch update answered no task_id');
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const task = await admin.getTask(taskId);
    if (task.status === 'completed') return task.result as unknown as BatchResult;
    if (task.status === 'failed') throw new Error(`batch failed: ${JSON.stringify(task)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`task ${taskId} did not finish`);
}

/** A channel type of this test's own, so a filter by type matches only this test's channels. */
async function ownType(env: ContractEnv, prefix: string): Promise<string> {
  const name = uniqueId(prefix)
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  await env.admin.createChannelType({ name });
  return name;
}

async function channelsOf(
  env: ContractEnv,
  type: string,
  count: number,
  ownerId: string,
  members: string[] = [ownerId],
): Promise<string[]> {
  const cids: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const id = uniqueId(`kenh-${i}`);
    await createChannelAsServer(env, type, id, ownerId, { members });
    cids.push(`${type}:${id}`);
  }
  return cids;
}

async function dataOf(admin: StreamChat, cid: string): Promise<Record<string, unknown>> {
  const [channel] = await admin.queryChannels({ cid }, {}, { state: false });
  if (!channel) throw new Error(`${cid} not found`);
  return channel.data as Record<string, unknown>;
}

describe('batch channel updates (PUT /channels/batch)', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('sets custom data on every channel of a type, or of a list of cids, and leaves the others alone', async () => {
    const ownerId = uniqueId('chuong-mon');
    await createUsers(env(), [ownerId]);
    const [sectType, otherType] = [await ownType(env(), 'mon'), await ownType(env(), 'khac')];
    const sect = await channelsOf(env(), sectType, 2, ownerId);
    const listed = await channelsOf(env(), 'messaging', 3, ownerId);
    const untouched = await channelsOf(env(), otherType, 1, ownerId);
    const updater = env().admin.channelBatchUpdater();

    const [byType, byCids] = await Promise.all([
      updater.updateData({ types: { $in: [sectType] } }, { custom_set: { color: 'do' } }),
      updater.updateData({ cids: { $in: listed } }, { custom_set: { color: 'xanh' } }),
    ]);

    const typeResult = await batchResult(env().admin, byType.task_id);
    expect(typeResult).toMatchObject({
      status: 'completed',
      operation: 'updateData',
      success_channels_count: 2,
      failed_channels: [],
    });
    expect(typeResult.finished_at).toEqual(expect.any(String));
    expect((await batchResult(env().admin, byCids.task_id)).success_channels_count).toBe(3);
    for (const cid of sect) expect((await dataOf(env().admin, cid)).color).toBe('do');
    for (const cid of listed) expect((await dataOf(env().admin, cid)).color).toBe('xanh');
    expect((await dataOf(env().admin, untouched[0]!)).color).toBeUndefined();
  });

  it('merges dotted custom keys, unsets others, and sets channel fields such as frozen for watchers to see', async () => {
    const ownerId = uniqueId('chu');
    const owner = await connectUser(env(), ownerId);
    const type = await ownType(env(), 'dong-bang');
    const [cid] = await channelsOf(env(), type, 1, ownerId);
    const id = cid!.split(':')[1]!;
    await env()
      .admin.channel(type, id)
      .updatePartial({
        set: { details: { topic: 'cũ', level: 1 }, obsolete: true },
      } as never);
    const watched = await watchChannel(owner, type, id);
    const updated = waitForEvent(
      watched,
      'channel.updated',
      (event) => event.channel?.frozen === true,
    );
    const updater = env().admin.channelBatchUpdater();

    const merged = await updater.updateData(
      { cids: { $eq: cid! } },
      { custom_set: { 'details.topic': 'mới' }, custom_unset: ['obsolete'] },
    );
    await batchResult(env().admin, merged.task_id);
    const frozen = await updater.updateData({ types: { $eq: type } }, { frozen: true });
    await batchResult(env().admin, frozen.task_id);

    const data = await dataOf(env().admin, cid!);
    expect(data.details).toEqual({ topic: 'mới', level: 1 });
    expect(data.obsolete).toBeUndefined();
    expect(data.frozen).toBe(true);
    await updated;
  });

  it('adds, invites, promotes, demotes, gives roles to and removes members across every matched channel', async () => {
    const [ownerId, discipleId, guestId] = [uniqueId('chu'), uniqueId('de-tu'), uniqueId('khach')];
    await createUsers(env(), [ownerId, discipleId, guestId]);
    const type = await ownType(env(), 'thanh-vien');
    const cids = await channelsOf(env(), type, 3, ownerId);
    const updater = env().admin.channelBatchUpdater();
    const filter = { types: { $eq: type } };
    const roleIn = async (cid: string, userId: string) => {
      const [t, id] = cid.split(':') as [string, string];
      const { members } = await env().admin.channel(t, id).queryMembers({ user_id: userId });
      return members[0] ? (members[0].channel_role ?? 'missing') : null;
    };
    const run = async (task: Promise<{ task_id?: string }>) =>
      (await batchResult(env().admin, (await task).task_id)).success_channels_count;

    expect(await run(updater.addMembers(filter, [discipleId]))).toBe(3);
    expect(await run(updater.inviteMembers(filter, [{ user_id: guestId }]))).toBe(3);
    for (const cid of cids) {
      expect(await roleIn(cid, discipleId)).toBe('channel_member');
      expect(await roleIn(cid, guestId)).not.toBeNull();
    }
    expect(await run(updater.addModerators(filter, [discipleId]))).toBe(3);
    for (const cid of cids) expect(await roleIn(cid, discipleId)).toBe('channel_moderator');
    expect(await run(updater.demoteModerators(filter, [discipleId]))).toBe(3);
    for (const cid of cids) expect(await roleIn(cid, discipleId)).toBe('channel_member');
    expect(
      await run(
        updater.assignRoles({ cids: { $eq: cids[0]! } }, [
          { user_id: discipleId, channel_role: 'channel_moderator' },
        ]),
      ),
    ).toBe(1);
    expect(await roleIn(cids[0]!, discipleId)).toBe('channel_moderator');
    expect(await roleIn(cids[1]!, discipleId)).toBe('channel_member');
    expect(await run(updater.removeMembers(filter, [discipleId, guestId]))).toBe(3);
    for (const cid of cids) expect(await roleIn(cid, discipleId)).toBeNull();
  });

  it('hides, shows, archives and unarchives for the named members, or for every member when none are named', async () => {
    const [ownerId, discipleId] = [uniqueId('chu'), uniqueId('de-tu')];
    await createUsers(env(), [ownerId, discipleId]);
    const type = await ownType(env(), 'an-hien');
    const cids = await channelsOf(env(), type, 2, ownerId, [ownerId, discipleId]);
    const updater = env().admin.channelBatchUpdater();
    const filter = { types: { $eq: type } };
    const listed = async (userId: string, extra: Record<string, unknown>) => {
      const found = await env().admin.queryChannels(
        { type, ...extra },
        {},
        { user_id: userId, state: false },
      );
      return found.map((channel) => channel.cid).sort();
    };

    // The client's hide(filter) names nobody; members go in the request itself.
    const hidden = await env().admin.updateChannelsBatch({
      operation: 'hide',
      filter,
      members: [discipleId],
    });
    await batchResult(env().admin, hidden.task_id);
    expect(await listed(discipleId, { hidden: true })).toEqual([...cids].sort());
    expect(await listed(ownerId, { hidden: true })).toEqual([]);
    await batchResult(env().admin, (await updater.show(filter)).task_id);
    expect(await listed(discipleId, { hidden: true })).toEqual([]);

    await batchResult(env().admin, (await updater.archive(filter)).task_id);
    expect(await listed(ownerId, { archived: true })).toEqual([...cids].sort());
    expect(await listed(discipleId, { archived: true })).toEqual([...cids].sort());
    await batchResult(env().admin, (await updater.unarchive(filter)).task_id);
    expect(await listed(discipleId, { archived: true })).toEqual([]);
  });

  it('reports a channel that failed in the task result without stopping the others', async () => {
    const ownerId = uniqueId('chu');
    await createUsers(env(), [ownerId]);
    const type = await ownType(env(), 'loi');
    const [full, roomy] = (await channelsOf(env(), type, 2, ownerId)) as [string, string];
    // Custom data just under the limit: one more field does not fit.
    await env()
      .admin.channel(type, full.split(':')[1]!)
      .updatePartial({ set: { notes: 'x'.repeat(5_090) } } as never);

    const { task_id } = await env()
      .admin.channelBatchUpdater()
      .updateData({ types: { $eq: type } }, { custom_set: { motto: 'Đạo pháp tự nhiên' } });
    const result = await batchResult(env().admin, task_id);

    expect(result.success_channels_count).toBe(1);
    expect(result.failed_channels).toEqual([
      { cid: full, error: expect.stringMatching(/too large/) },
    ]);
    expect((await dataOf(env().admin, roomy)).motto).toBe('Đạo pháp tự nhiên');
    expect((await dataOf(env().admin, full)).motto).toBeUndefined();
  });

  it('is refused to clients, and refuses bare lists, missing members and data where it does not belong', async () => {
    const userId = uniqueId('tan-tu');
    const user = await connectUser(env(), userId);
    const cid = `messaging:${uniqueId('kenh')}`;
    await expectStreamError(
      user.updateChannelsBatch({
        operation: 'updateData',
        filter: { cids: { $eq: cid } },
        custom_set: { color: 'do' },
      }),
      { code: 17 },
    );
    const admin = env().admin;
    const refusals: [object, RegExp][] = [
      [{ operation: 'hide', filter: { cids: [cid] } }, /filter\.cids/],
      [{ operation: 'hide', filter: {} }, /filter/],
      [{ operation: 'addMembers', filter: { cids: { $eq: cid } } }, /members/],
      [{ operation: 'fly', filter: { cids: { $eq: cid } } }, /operation/],
      [
        { operation: 'assignRoles', filter: { cids: { $eq: cid } }, members: ['a'] },
        /channel_role/,
      ],
      [{ operation: 'updateData', filter: { cids: { $eq: cid } } }, /data/],
      [
        {
          operation: 'updateData',
          filter: { cids: { $eq: cid } },
          data: { custom: { a: 1 } },
          custom_set: { b: 2 },
        },
        /custom_set/,
      ],
      [{ operation: 'updateData', filter: { cids: { $eq: cid } }, data: { name: 'x' } }, /data/],
      [
        { operation: 'updateData', filter: { cids: { $eq: cid } }, custom_set: { frozen: true } },
        /custom_set frozen is not a custom field/,
      ],
      [
        { operation: 'updateData', filter: { cids: { $eq: cid } }, custom_unset: ['team.id'] },
        /custom_unset team\.id is not a custom field/,
      ],
      [{ operation: 'hide', filter: { cids: { $eq: cid } }, data: { frozen: true } }, /data/],
      [
        {
          operation: 'addMembers',
          filter: { cids: { $eq: cid } },
          members: Array.from({ length: 101 }, (_, i) => `u${i}`),
        },
        /members/,
      ],
    ];
    for (const [body, message] of refusals)
      await expectStreamError(admin.put(`${admin.baseURL}/channels/batch`, body), {
        code: 4,
        message,
      });
  });
});
