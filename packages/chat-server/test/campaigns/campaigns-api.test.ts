import { describe, expect, it } from 'vitest';
import {
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  rawRequest,
  uniqueId,
  useContractEnv,
} from '../contract/helpers.ts';
import { cultivators, waitForCampaign } from './support.ts';

describe('segments through the server-side client', () => {
  const env = useContractEnv();

  it('creates a user segment on a tu vi range and counts the cultivators it reaches', async () => {
    const marker = uniqueId('mon-phai');
    const { targets } = await cultivators(env(), 'seg', 4, (i) => [50, 5_000, 60_000, 600_000][i]!);
    await env().admin.partialUpdateUsers(
      targets.map((id) => ({ id, set: { mon_phai: marker } as never })),
    );
    const id = uniqueId('kim-dan');
    const { segment } = await env().admin.createSegment('user', id, {
      name: 'Từ Trúc Cơ trở lên',
      filter: { mon_phai: marker, tu_vi: { $gte: 4_001, $lte: 500_000 } },
    });
    expect(segment).toMatchObject({ id, type: 'user', name: 'Từ Trúc Cơ trở lên', size: 2 });
    expect((await env().admin.getSegment(id)).segment.size).toBe(2);
  });

  it('reads, updates, lists and deletes a segment, and its explicit targets', async () => {
    const { targets } = await cultivators(env(), 'tgt', 3);
    const id = uniqueId('chon');
    await env().admin.createSegment('user', id, { name: 'Chọn tay' });
    await env().admin.addSegmentTargets(id, [targets[0]!, targets[1]!, targets[2]!]);
    await env().admin.removeSegmentTargets(id, [targets[2]!]);
    expect((await env().admin.getSegment(id)).segment.size).toBe(2);
    await env().admin.segmentTargetExists(id, targets[0]!);
    await expectStreamError(env().admin.segmentTargetExists(id, targets[2]!), { code: 16 });
    const page = await env().admin.querySegmentTargets(id, { target_id: { $in: targets } });
    expect(page.targets.map((t) => t.target_id).sort()).toEqual([targets[0], targets[1]].sort());

    const { segment } = await env().admin.updateSegment(id, { name: 'Đã đổi tên' });
    expect(segment.name).toBe('Đã đổi tên');
    const listed = await env().admin.querySegments({ id: { $eq: id } });
    expect(listed.segments.map((s) => s.id)).toEqual([id]);

    await env().admin.deleteSegment(id);
    await expectStreamError(env().admin.getSegment(id), { code: 16, status: 404 });
  });

  it('refuses a duplicate id, a bad filter and a bad type with code 4 naming the field', async () => {
    const id = uniqueId('trung');
    await env().admin.createSegment('user', id, { all_users: true });
    await expectStreamError(env().admin.createSegment('user', id, {}), {
      code: 4,
      message: /already exists/,
    });
    await expectStreamError(
      env().admin.createSegment('user', null, { filter: { tu_vi: { $regex: 'x' } } }),
      { code: 4 },
    );
    await expectStreamError(env().admin.createSegment('nhom' as never, null, {}), {
      code: 4,
      message: /type/,
    });
    await expectStreamError(env().admin.addSegmentTargets(id, []), {
      code: 4,
      message: /target_ids/,
    });
  });

  it('answers unknown segments with code 16', async () => {
    const missing = uniqueId('khong-co');
    await expectStreamError(env().admin.getSegment(missing), { code: 16 });
    await expectStreamError(env().admin.updateSegment(missing, { name: 'x' }), { code: 16 });
    await expectStreamError(env().admin.deleteSegment(missing), { code: 16 });
    await expectStreamError(env().admin.addSegmentTargets(missing, ['a']), { code: 16 });
  });
});

describe('campaigns through the server-side client', () => {
  const env = useContractEnv();

  function draft(sender: string, userIds: string[]) {
    return {
      sender_id: sender,
      user_ids: userIds,
      name: 'Khai mở bí cảnh',
      description: 'Thông báo toàn tông',
      message_template: { text: 'Chào {{ receiver.name }}!' },
      create_channels: true,
    };
  }

  it('creates a draft with the fields it was given, then gets it by id', async () => {
    const { sender, targets } = await cultivators(env(), 'tao', 2);
    const campaign = env().admin.campaign(uniqueId('cd'), {
      ...draft(sender, targets),
      skip_push: true,
      skip_webhook: true,
      show_channels: true,
      channel_template: { type: 'messaging' },
    });
    const created = await campaign.create();
    expect(created.campaign).toMatchObject({
      id: campaign.id,
      status: 'draft',
      sender_id: sender,
      user_ids: targets,
      name: 'Khai mở bí cảnh',
      description: 'Thông báo toàn tông',
      message_template: { text: 'Chào {{ receiver.name }}!' },
      create_channels: true,
      show_channels: true,
      skip_push: true,
      skip_webhook: true,
      channel_template: { type: 'messaging' },
      sender: { id: sender },
    });
    expect(created.campaign.users.map((u) => u.id)).toEqual(targets);
    const { campaign: read } = await campaign.get();
    expect(read).toMatchObject({
      id: campaign.id,
      status: 'draft',
      stats: { stats_messages_sent: 0 },
    });
  });

  it('updates a draft, lists it among the campaigns, and deletes it', async () => {
    const { sender, targets } = await cultivators(env(), 'sua', 1);
    const campaign = env().admin.campaign(uniqueId('cd'), draft(sender, targets));
    await campaign.create();
    const { campaign: updated } = await campaign.update({ name: 'Tên mới' });
    expect(updated).toMatchObject({ name: 'Tên mới', sender_id: sender });
    const { campaigns } = await env().admin.queryCampaigns(
      {},
      [{ field: 'created_at', direction: -1 }],
      {
        limit: 100,
      },
    );
    expect(campaigns.map((c) => c.id)).toContain(campaign.id);
    await campaign.delete();
    await expectStreamError(campaign.get(), { code: 16, status: 404 });
  });

  it('schedules a start for later and stops a scheduled campaign', async () => {
    const { sender, targets } = await cultivators(env(), 'hen', 1);
    const campaign = env().admin.campaign(uniqueId('cd'), draft(sender, targets));
    await campaign.create();
    const later = new Date(Date.now() + 3_600_000).toISOString();
    const { campaign: started } = await campaign.start({ scheduledFor: later });
    expect(started.status).toBe('scheduled');
    expect(Date.parse(started.scheduled_for!)).toBe(Date.parse(later));
    const { campaign: stopped } = await campaign.stop();
    expect(stopped.status).toBe('stopped');
  });

  it('refuses to start a campaign twice and to update one that is running or done', async () => {
    const { sender, targets } = await cultivators(env(), 'hai', 2);
    const campaign = env().admin.campaign(uniqueId('cd'), draft(sender, targets));
    await campaign.create();
    await campaign.start();
    await expectStreamError(campaign.start(), { code: 4, message: /cannot be started/ });
    await waitForCampaign(
      env().admin,
      campaign.id!,
      (c) => c.status === 'completed',
      'it completes',
    );
    await expectStreamError(campaign.update({ name: 'Muộn rồi' }), {
      code: 4,
      message: /can no longer be updated/,
    });
    await expectStreamError(campaign.start(), { code: 4 });
    await expectStreamError(campaign.stop(), { code: 4 });
  });

  it('refuses a campaign without sender, template or targets, or naming unknown things, with code 4', async () => {
    const { sender, targets } = await cultivators(env(), 'thieu', 1);
    await expectStreamError(
      env().admin.createCampaign({ user_ids: targets, message_template: { text: 'x' } }),
      { code: 4, message: /sender_id/ },
    );
    await expectStreamError(env().admin.createCampaign({ sender_id: sender, user_ids: targets }), {
      code: 4,
      message: /message_template/,
    });
    await expectStreamError(
      env().admin.createCampaign({ sender_id: sender, message_template: { text: 'x' } }),
      { code: 4, message: /segment_ids or user_ids/ },
    );
    await expectStreamError(
      env().admin.createCampaign({
        sender_id: sender,
        segment_ids: [uniqueId('khong-co')],
        message_template: { text: 'x' },
      }),
      { code: 4, message: /segment .* does not exist/ },
    );
    await expectStreamError(
      env().admin.createCampaign({
        sender_id: uniqueId('ma'),
        user_ids: targets,
        message_template: { text: 'x' },
      }),
      { code: 4, message: /sender_id/ },
    );
    await expectStreamError(
      env().admin.startCampaign(uniqueId('khong-co'), { scheduledFor: 'mai' }),
      { code: 4, message: /scheduled_for/ },
    );
  });

  it('answers unknown campaign ids with code 16 and the client refuses a campaign without id', async () => {
    const missing = uniqueId('khong-co');
    await expectStreamError(env().admin.getCampaign(missing), { code: 16 });
    await expectStreamError(env().admin.startCampaign(missing), { code: 16 });
    await expectStreamError(env().admin.stopCampaign(missing), { code: 16 });
    await expectStreamError(env().admin.updateCampaign(missing, { name: 'x' }), { code: 16 });
    await expectStreamError(env().admin.deleteCampaign(missing), { code: 16 });
    expect(() => env().admin.campaign({ name: 'không id' }).stop()).toThrow(
      /Campaign id is missing/,
    );
  });

  it('refuses every segment and campaign call made with a user token, an admin’s included, with code 17', async () => {
    const admin = uniqueId('chuong-mon');
    await createUsers(env(), [{ id: admin, name: admin, role: 'admin' } as never]);
    const calls = [
      { method: 'POST', path: '/segments', body: { type: 'user', all_users: true } },
      { method: 'POST', path: '/segments/query', body: {} },
      { method: 'GET', path: '/segments/x' },
      { method: 'PUT', path: '/segments/x', body: {} },
      { method: 'DELETE', path: '/segments/x' },
      { method: 'POST', path: '/segments/x/addtargets', body: { target_ids: ['a'] } },
      { method: 'POST', path: '/segments/x/deletetargets', body: { target_ids: ['a'] } },
      { method: 'POST', path: '/segments/x/targets/query', body: {} },
      { method: 'GET', path: '/segments/x/target/a' },
      {
        method: 'POST',
        path: '/campaigns',
        body: { sender_id: admin, user_ids: [admin], message_template: { text: 'x' } },
      },
      { method: 'POST', path: '/campaigns/query', body: {} },
      { method: 'GET', path: '/campaigns/x' },
      { method: 'PUT', path: '/campaigns/x', body: {} },
      { method: 'DELETE', path: '/campaigns/x' },
      { method: 'POST', path: '/campaigns/x/start', body: {} },
      { method: 'POST', path: '/campaigns/x/stop' },
    ] as const;
    for (const call of calls) {
      const answer = await rawRequest(env(), { ...call, userId: admin });
      expectStreamErrorBody(answer, 17, 403);
    }
  });
});
