import { describe, expect, it } from 'vitest';
import {
  connectUser,
  createUsers,
  expectStreamError,
  uniqueId,
  useContractEnv,
  waitForEvent,
  type ContractEnv,
} from './helpers.ts';
import { campaignOf, cultivators, waitForCampaign } from '../campaigns/support.ts';

/** Channel targets' outcomes, beside the counters the campaign tests already read. */
interface ChannelStats {
  stats_targets: number;
  stats_messages_sent: number;
  stats_users_sent: number;
  stats_users_failed: number;
  stats_channels_sent: number;
  stats_channels_failed: number;
}

async function channelStats(env: ContractEnv, id: string): Promise<ChannelStats> {
  return (await campaignOf(env.admin, id)).stats as unknown as ChannelStats;
}

/** `count` sect halls tagged `marker`, created server-side by `owner` (its only member); returns their ids. */
async function sectHalls(
  env: ContractEnv,
  owner: string,
  marker: string,
  count: number,
): Promise<string[]> {
  const ids = Array.from({ length: count }, (_, i) => uniqueId(`dien-${i}`));
  for (let i = 0; i < ids.length; i += 10)
    await Promise.all(
      ids.slice(i, i + 10).map((id, offset) =>
        env.admin
          .channel('messaging', id, {
            created_by_id: owner,
            members: [owner],
            name: `Điện ${i + offset}`,
            mon_phai: marker,
          } as never)
          .create(),
      ),
    );
  return ids;
}

/** How many messages of the campaign each channel tagged `marker` holds (a duplicate would show as 2). */
async function messagesPerChannel(
  env: ContractEnv,
  marker: string,
  campaignId: string,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let offset = 0; ; offset += 30) {
    const channels = await env.admin.queryChannels(
      { mon_phai: marker } as never,
      { cid: 1 } as never,
      {
        limit: 30,
        offset,
        message_limit: 10,
      } as never,
    );
    for (const channel of channels) {
      const n = channel.state.messages.filter(
        (m) => (m as { campaign_id?: unknown }).campaign_id === campaignId,
      ).length;
      counts.set(channel.id!, n);
    }
    if (channels.length < 30) return counts;
  }
}

async function channelCampaign(env: ContractEnv, sender: string, segment: string, text: string) {
  const id = uniqueId('cc');
  await env.admin.createCampaign({
    id,
    sender_id: sender,
    segment_ids: [segment],
    message_template: { text },
  });
  return id;
}

describe('channel segments', () => {
  const env = useContractEnv();

  it('counts the channels its filter reaches now, beside the cids listed as targets', async () => {
    const { sender } = await cultivators(env(), 'cs', 0);
    const marker = uniqueId('mp');
    await sectHalls(env(), sender, marker, 2);
    const [listed] = await sectHalls(env(), sender, uniqueId('khac'), 1);
    const id = uniqueId('seg');
    const { segment } = await env().admin.createSegment('channel', id, {
      filter: { mon_phai: marker },
    });
    expect(segment).toMatchObject({ id, type: 'channel', filter: { mon_phai: marker }, size: 2 });

    await env().admin.addSegmentTargets(id, [`messaging:${listed}`, 'messaging:khong-ton-tai']);
    // The listed cid of a channel that does not exist is kept as a target but reaches nothing.
    expect((await env().admin.getSegment(id)).segment.size).toBe(3);
    await sectHalls(env(), sender, marker, 1);
    expect((await env().admin.getSegment(id)).segment.size).toBe(4);
  });

  it('refuses a bad channel filter on create and update, and a target that is not a cid, with code 4', async () => {
    await expectStreamError(
      env().admin.createSegment('channel', uniqueId('seg'), {
        filter: { members: { $regex: 'x' } },
      }),
      { code: 4, status: 400, message: /filter/ },
    );
    const id = uniqueId('seg');
    await env().admin.createSegment('channel', id, { name: 'Các điện' });
    await expectStreamError(
      env().admin.updateSegment(id, { name: 'x', filter: { frozen: { $foo: 1 } } }),
      { code: 4, message: /filter/ },
    );
    await expectStreamError(env().admin.addSegmentTargets(id, ['khong-phai-cid']), {
      code: 4,
      message: /target_ids/,
    });
    expect((await env().admin.getSegment(id)).segment).toMatchObject({ filter: {}, size: 0 });
  });
});

describe('campaigns to channel segments', () => {
  const env = useContractEnv();

  it('sends the template once into each channel from the sender, a member or not, with channel placeholders', async () => {
    const { sender } = await cultivators(env(), 'gui', 0);
    const watcherId = uniqueId('de-tu');
    await createUsers(env(), [{ id: watcherId, name: 'Đệ tử' }]);
    const marker = uniqueId('mp');
    const [own] = await sectHalls(env(), sender, marker, 1);
    const [foreign] = await sectHalls(env(), watcherId, marker, 1);
    const segment = uniqueId('seg');
    await env().admin.createSegment('channel', segment, { filter: { mon_phai: marker } });
    await env().admin.addSegmentTargets(segment, ['messaging:khong-ton-tai']);
    const watcher = await connectUser(env(), watcherId);
    const hall = watcher.channel('messaging', foreign);
    await hall.watch();
    const arrived = waitForEvent(watcher, 'message.new', (e) => e.cid === hall.cid, 20_000);

    const id = await channelCampaign(
      env(),
      sender,
      segment,
      'Thông báo cho {{ channel.name }} ({{ channel.mon_phai }}) — {{ sender.name }}{{ receiver.name }}',
    );
    await env().admin.startCampaign(id);
    await waitForCampaign(env().admin, id, (c) => c.status === 'completed', 'it completes');

    const event = await arrived;
    expect(event.message).toMatchObject({
      text: `Thông báo cho Điện 0 (${marker}) — Tông Môn`,
      campaign_id: id,
      user: { id: sender },
    });
    expect(await channelStats(env(), id)).toMatchObject({
      stats_targets: 2,
      stats_messages_sent: 2,
      stats_channels_sent: 2,
      stats_channels_failed: 0,
      stats_users_sent: 0,
      stats_users_failed: 0,
    });
    const counts = await messagesPerChannel(env(), marker, id);
    expect(Object.fromEntries(counts)).toEqual({ [own!]: 1, [foreign!]: 1 });
    // The sender wrote with the campaign's rights and did not become a member.
    const members = await hall.queryMembers({});
    expect(members.members.map((m) => m.user_id)).toEqual([watcherId]);
  }, 60_000);

  it('reaches users and channels of one campaign, and all the sender’s channels with all_sender_channels', async () => {
    const { sender, targets } = await cultivators(env(), 'tron', 1);
    const marker = uniqueId('mp');
    await sectHalls(env(), sender, marker, 2);
    const segment = uniqueId('seg');
    await env().admin.createSegment('channel', segment, { all_sender_channels: true });
    const id = uniqueId('cc');
    await env().admin.createCampaign({
      id,
      sender_id: sender,
      user_ids: targets,
      segment_ids: [segment],
      create_channels: true,
      message_template: { text: 'Chào {{ receiver.name }}' },
    });
    await env().admin.startCampaign(id);
    await waitForCampaign(env().admin, id, (c) => c.status === 'completed', 'it completes');

    expect(await channelStats(env(), id)).toMatchObject({
      stats_messages_sent: 3,
      stats_users_sent: 1,
      stats_channels_sent: 2,
    });
    const counts = await messagesPerChannel(env(), marker, id);
    expect([...counts.values()]).toEqual([1, 1]);
    const [conversation] = await env().admin.queryChannels({
      members: { $eq: [sender, targets[0]!] },
    } as never);
    expect(conversation?.state.messages.at(-1)).toMatchObject({
      text: `Chào Đạo hữu ${targets[0]}`,
      campaign_id: id,
    });
  }, 60_000);

  it('counts a channel whose send is refused as failed and still reaches the others', async () => {
    const { sender } = await cultivators(env(), 'cam', 0);
    const marker = uniqueId('mp');
    const [open] = await sectHalls(env(), sender, marker, 1);
    // A channel type whose messages are at most 10 characters refuses the campaign's text.
    const shortType = uniqueId('ngan')
      .toLowerCase()
      .replace(/[^a-z0-9_-]/g, '-');
    await env().admin.createChannelType({ name: shortType, max_message_length: 10 } as never);
    const strict = uniqueId('nghiem');
    await env()
      .admin.channel(shortType, strict, {
        created_by_id: sender,
        members: [sender],
        mon_phai: marker,
      } as never)
      .create();
    const segment = uniqueId('seg');
    await env().admin.createSegment('channel', segment, { filter: { mon_phai: marker } });
    const id = await channelCampaign(env(), sender, segment, 'Một lời dài hơn mười chữ');
    await env().admin.startCampaign(id);
    await waitForCampaign(env().admin, id, (c) => c.status === 'completed', 'it completes');

    expect(await channelStats(env(), id)).toMatchObject({
      stats_targets: 2,
      stats_messages_sent: 1,
      stats_channels_sent: 1,
      stats_channels_failed: 1,
      stats_users_failed: 0,
    });
    expect(Object.fromEntries(await messagesPerChannel(env(), marker, id))).toEqual({
      [open!]: 1,
      [strict]: 0,
    });
  }, 60_000);

  it('refuses a channel cid among user_ids with code 4, so no listed user is taken for a channel', async () => {
    const { sender, targets } = await cultivators(env(), 'nham', 1);
    const [hall] = await sectHalls(env(), sender, uniqueId('mp'), 1);
    const campaign = {
      sender_id: sender,
      user_ids: [targets[0]!, `messaging:${hall}`],
      message_template: { text: 'Không được vào điện' },
    };
    await expectStreamError(env().admin.createCampaign(campaign), {
      code: 4,
      message: /user_ids/,
    });
  });

  it('refuses to start a channel campaign twice with code 4', async () => {
    const { sender } = await cultivators(env(), 'hai', 0);
    const marker = uniqueId('mp');
    await sectHalls(env(), sender, marker, 1);
    const segment = uniqueId('seg');
    await env().admin.createSegment('channel', segment, { filter: { mon_phai: marker } });
    const id = await channelCampaign(env(), sender, segment, 'Một lần');
    await env().admin.startCampaign(id);
    await expectStreamError(env().admin.startCampaign(id), {
      code: 4,
      message: /cannot be started/,
    });
    await waitForCampaign(env().admin, id, (c) => c.status === 'completed', 'it completes');
    expect([...(await messagesPerChannel(env(), marker, id)).values()]).toEqual([1]);
  }, 60_000);

  it('stops midway, and a second start reaches only the channels not yet reached', async () => {
    const { sender } = await cultivators(env(), 'dung', 0);
    const marker = uniqueId('mp');
    await sectHalls(env(), sender, marker, 120);
    const segment = uniqueId('seg');
    await env().admin.createSegment('channel', segment, { filter: { mon_phai: marker } });
    const id = await channelCampaign(env(), sender, segment, 'Dừng giữa chừng');
    await env().admin.startCampaign(id);
    await waitForCampaign(env().admin, id, (c) => c.stats.stats_messages_sent > 0, 'a first send');
    const { campaign } = await env().admin.stopCampaign(id);
    expect(campaign.status).toBe('stopped');
    const stopped = await waitForSettled(env(), id);
    expect(stopped).toBeLessThan(120);

    await env().admin.startCampaign(id);
    await expectEachChannelOnce(env(), id, marker, 120);
  }, 180_000);
});

/** Waits for the campaign to complete, then checks that each of the `channels` got its message exactly once. */
async function expectEachChannelOnce(
  env: ContractEnv,
  id: string,
  marker: string,
  channels: number,
): Promise<void> {
  await waitForCampaign(env.admin, id, (c) => c.status === 'completed', 'it completes', 120_000);
  const counts = await messagesPerChannel(env, marker, id);
  expect(counts.size).toBe(channels);
  expect([...counts.values()].every((n) => n === 1)).toBe(true);
  expect(await channelStats(env, id)).toMatchObject({
    stats_targets: channels,
    stats_messages_sent: channels,
    stats_channels_sent: channels,
  });
}

/** The sent count once it stops moving (two reads 300 ms apart agree), bounded. */
async function waitForSettled(env: ContractEnv, id: string): Promise<number> {
  let last = -1;
  for (let i = 0; i < 20; i++) {
    const sent = (await channelStats(env, id)).stats_messages_sent;
    if (sent === last) return sent;
    last = sent;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error('the campaign kept sending after it was stopped');
}

describe('campaigns to channel segments across a restart', () => {
  const env = useContractEnv();

  it('resumes after a restart midway and sends into each channel exactly once', async () => {
    const { sender } = await cultivators(env(), 'kd', 0);
    const marker = uniqueId('mp');
    await sectHalls(env(), sender, marker, 120);
    const segment = uniqueId('seg');
    await env().admin.createSegment('channel', segment, { filter: { mon_phai: marker } });
    const id = await channelCampaign(env(), sender, segment, 'Khởi động lại');
    await env().admin.startCampaign(id);
    await waitForCampaign(env().admin, id, (c) => c.stats.stats_messages_sent > 0, 'a first send');
    await env().server.restart();
    const after = await channelStats(env(), id);
    expect(after.stats_messages_sent).toBeLessThan(120);

    await expectEachChannelOnce(env(), id, marker, 120);
  }, 180_000);
});
