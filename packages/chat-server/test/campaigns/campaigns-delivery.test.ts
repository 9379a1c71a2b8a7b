import { describe, expect, it } from 'vitest';
import { connectUser, uniqueId, useContractEnv, waitForEvent } from '../contract/helpers.ts';
import { campaignMessageCounts, cultivators, waitForCampaign } from './support.ts';

describe('campaign delivery', () => {
  const env = useContractEnv();

  it('sends every target one message in its own conversation, with name and realm filled in', async () => {
    const { sender, targets } = await cultivators(env(), 'gui', 25, (i) => (i === 0 ? 15_000 : 50));
    const watcher = await connectUser(env(), targets[0]!);
    const id = uniqueId('cd');
    const arrived = waitForEvent(
      watcher,
      'notification.message_new',
      (e) => e.message?.id !== undefined,
      20_000,
    );
    await env()
      .admin.campaign(id, {
        sender_id: sender,
        user_ids: targets,
        message_template: {
          text: 'Chào {{ receiver.name }}, cảnh giới {{receiver.realm}}. — {{ sender.name }}',
          custom: { loai: 'thong-bao' },
        },
        create_channels: true,
      })
      .create();
    await env().admin.startCampaign(id);

    const done = await waitForCampaign(
      env().admin,
      id,
      (c) => c.status === 'completed',
      'it completes',
    );
    expect(done.stats).toMatchObject({
      stats_targets: 25,
      stats_messages_sent: 25,
      stats_users_failed: 0,
      stats_channels_created: 25,
      progress: 1,
    });
    const event = await arrived;
    expect(event.message).toMatchObject({
      text: `Chào Đạo hữu ${targets[0]}, cảnh giới Trúc Cơ Trung Kỳ. — Tông Môn`,
      campaign_id: id,
      loai: 'thong-bao',
      user: { id: sender },
    });
    const counts = await campaignMessageCounts(env(), sender, id);
    expect([...counts.keys()].sort()).toEqual([...targets].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    // Delivered through the normal send path: the receiver's unread count moved.
    const [channel] = await watcher.queryChannels({ members: { $in: [sender] } });
    expect(channel?.countUnread()).toBe(1);
  }, 90_000);

  it('reaches a segment’s cultivators in their existing conversations and fails those without one', async () => {
    const { sender, targets } = await cultivators(
      env(),
      'seg',
      4,
      (i) => [50, 50, 60_000, 600_000][i]!,
    );
    const marker = uniqueId('mp');
    await env().admin.partialUpdateUsers(
      targets.map((id) => ({ id, set: { mon_phai: marker } as never })),
    );
    // Only the third cultivator already talks with the sender.
    await env()
      .admin.channel('messaging', { members: [sender, targets[2]!], created_by_id: sender })
      .create();
    const segment = uniqueId('kim-dan');
    await env().admin.createSegment('user', segment, {
      filter: { mon_phai: marker, tu_vi: { $gte: 50_001 } },
    });
    const id = uniqueId('cd');
    await env().admin.createCampaign({
      id,
      sender_id: sender,
      segment_ids: [segment],
      message_template: { text: 'Kim Đan hội ngộ' },
    });
    await env().admin.startCampaign(id);
    const done = await waitForCampaign(
      env().admin,
      id,
      (c) => c.status === 'completed',
      'it completes',
    );
    expect(done.stats).toMatchObject({
      stats_targets: 2,
      stats_messages_sent: 1,
      stats_users_failed: 1,
      stats_channels_created: 0,
    });
    const counts = await campaignMessageCounts(env(), sender, id);
    expect([...counts.entries()]).toEqual([[targets[2], 1]]);
  }, 90_000);

  it('stops within the batch in flight, and a second start sends only to those not yet reached', async () => {
    const { sender, targets } = await cultivators(env(), 'dung', 150);
    const id = uniqueId('cd');
    await env().admin.createCampaign({
      id,
      sender_id: sender,
      user_ids: targets,
      message_template: { text: 'Dừng giữa chừng' },
      create_channels: true,
    });
    await env().admin.startCampaign(id);
    await waitForCampaign(env().admin, id, (c) => c.stats.stats_messages_sent > 0, 'a first send');
    const { campaign } = await env().admin.stopCampaign(id);
    expect(campaign.status).toBe('stopped');
    const atStop = (campaign.stats as unknown as { stats_messages_sent: number })
      .stats_messages_sent;
    const settled = await settledStats(id);
    // At most the group of sends already in flight when the stop landed.
    expect(settled).toBeLessThanOrEqual(atStop + 4);
    expect(settled).toBeLessThan(150);

    await env().admin.startCampaign(id);
    await waitForCampaign(
      env().admin,
      id,
      (c) => c.status === 'completed',
      'it completes',
      120_000,
    );
    const counts = await campaignMessageCounts(env(), sender, id);
    expect(counts.size).toBe(150);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  }, 180_000);

  /** The sent count once it stops moving (two reads 300 ms apart agree), bounded. */
  async function settledStats(id: string): Promise<number> {
    let last = -1;
    for (let i = 0; i < 20; i++) {
      const { campaign } = await env().admin.getCampaign(id);
      const sent = (campaign.stats as unknown as { stats_messages_sent: number })
        .stats_messages_sent;
      if (sent === last) return sent;
      last = sent;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    throw new Error('the campaign kept sending after it was stopped');
  }
});

describe('campaign delivery across a restart', () => {
  const env = useContractEnv();

  it('resumes a running campaign after a restart and reaches every target exactly once', async () => {
    const { sender, targets } = await cultivators(env(), 'kd', 150);
    const id = uniqueId('cd');
    await env().admin.createCampaign({
      id,
      sender_id: sender,
      user_ids: targets,
      message_template: { text: 'Khởi động lại' },
      create_channels: true,
    });
    await env().admin.startCampaign(id);
    const before = await waitForCampaign(
      env().admin,
      id,
      (c) => c.stats.stats_messages_sent > 0,
      'a first send',
    );
    expect(before.status).toBe('in_progress');
    await env().server.restart();
    const after = await env().admin.getCampaign(id);
    expect(after.campaign.status).toBe('in_progress');
    expect(
      (after.campaign.stats as unknown as { stats_messages_sent: number }).stats_messages_sent,
    ).toBeLessThan(150);

    const done = await waitForCampaign(
      env().admin,
      id,
      (c) => c.status === 'completed',
      'it completes',
      120_000,
    );
    expect(done.stats).toMatchObject({ stats_targets: 150, stats_messages_sent: 150 });
    const counts = await campaignMessageCounts(env(), sender, id);
    expect(counts.size).toBe(150);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  }, 180_000);
});
