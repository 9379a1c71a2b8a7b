import { describe, expect, it } from 'vitest';
import { expectStreamError, uniqueId, useContractEnv } from './helpers.ts';
import { cultivators, waitForCampaign } from '../campaigns/support.ts';

describe('sender_mode and sender_visibility on the conversations a campaign creates', () => {
  const env = useContractEnv();

  async function sendOne(sender: string, target: string, extra: Record<string, unknown>) {
    const id = uniqueId('cc');
    await env().admin.createCampaign({
      id,
      sender_id: sender,
      user_ids: [target],
      create_channels: true,
      message_template: { text: 'Riêng cho {{ receiver.name }}' },
      ...extra,
    });
    await env().admin.startCampaign(id);
    await waitForCampaign(env().admin, id, (c) => c.status === 'completed', 'it completes');
    return id;
  }

  it('leaves the sender out of the new conversation with sender_mode exclude', async () => {
    const { sender, targets } = await cultivators(env(), 'ngoai', 1);
    const id = await sendOne(sender, targets[0]!, { sender_mode: 'exclude' });
    const channels = await env().admin.queryChannels({ members: { $in: [targets[0]!] } });
    expect(channels).toHaveLength(1);
    expect(Object.keys(channels[0]!.state.members)).toEqual([targets[0]]);
    expect(channels[0]!.state.messages.at(-1)).toMatchObject({
      campaign_id: id,
      user: { id: sender },
    });
    const own = await env().admin.queryChannels({ members: { $in: [sender] } }, {}, {
      user_id: sender,
    } as never);
    expect(own).toHaveLength(0);
  });

  it('hides the new conversation for the sender with sender_visibility hidden', async () => {
    const { sender, targets } = await cultivators(env(), 'an', 1);
    await sendOne(sender, targets[0]!, { sender_visibility: 'hidden' });
    const asSender = { user_id: sender } as never;
    const filter = { members: { $in: [targets[0]!] } };
    expect(await env().admin.queryChannels(filter, {}, asSender)).toHaveLength(0);
    const hidden = await env().admin.queryChannels({ ...filter, hidden: true }, {}, asSender);
    expect(hidden).toHaveLength(1);
    // The receiver still sees it.
    const receiver = { user_id: targets[0] } as never;
    expect(await env().admin.queryChannels(filter, {}, receiver)).toHaveLength(1);
  });

  it('archives the new conversation for the sender with sender_visibility archived', async () => {
    const { sender, targets } = await cultivators(env(), 'luu', 1);
    await sendOne(sender, targets[0]!, { sender_visibility: 'archived' });
    const filter = { members: { $in: [targets[0]!] } };
    const archived = await env().admin.queryChannels({ ...filter, archived: true }, {}, {
      user_id: sender,
    } as never);
    expect(archived).toHaveLength(1);
    const forReceiver = await env().admin.queryChannels({ ...filter, archived: true }, {}, {
      user_id: targets[0],
    } as never);
    expect(forReceiver).toHaveLength(0);
  });

  it('gives the members of a new conversation the role and fields of channel_template.members_template', async () => {
    const { sender, targets } = await cultivators(env(), 'vai', 1);
    await sendOne(sender, targets[0]!, {
      channel_template: {
        type: 'messaging',
        members_template: [
          {
            user_id: targets[0],
            channel_role: 'channel_moderator',
            custom: { chuc_vi: 'hộ pháp' },
          },
        ],
      },
    });
    const [channel] = await env().admin.queryChannels({ members: { $in: [targets[0]!] } });
    const { members } = await channel!.queryMembers({ user_id: targets[0]! });
    expect(members[0]).toMatchObject({ channel_role: 'channel_moderator', chuc_vi: 'hộ pháp' });
    await expectStreamError(
      env().admin.createCampaign({
        sender_id: sender,
        user_ids: targets,
        message_template: { text: 'x' },
        channel_template: { type: 'messaging', members_template: [{ channel_role: 'owner' }] },
      } as never),
      { code: 4, message: /members_template/ },
    );
  });

  it('refuses an unknown sender_mode or sender_visibility with code 4 naming the field', async () => {
    const { sender, targets } = await cultivators(env(), 'sai', 1);
    const base = { sender_id: sender, user_ids: targets, message_template: { text: 'x' } };
    await expectStreamError(env().admin.createCampaign({ ...base, sender_mode: 'both' } as never), {
      code: 4,
      message: /sender_mode/,
    });
    await expectStreamError(
      env().admin.createCampaign({ ...base, sender_visibility: 'gone' } as never),
      { code: 4, message: /sender_visibility/ },
    );
  });
});

describe('queryCampaigns filters', () => {
  const env = useContractEnv();

  it('filters on id and status, and refuses an unknown field with code 4', async () => {
    const { sender, targets } = await cultivators(env(), 'loc', 1);
    const base = { sender_id: sender, user_ids: targets, message_template: { text: 'Lọc' } };
    const draftId = uniqueId('cc');
    const startedId = uniqueId('cc');
    await env().admin.createCampaign({ id: draftId, ...base });
    await env().admin.createCampaign({ id: startedId, ...base, create_channels: true });
    await env().admin.startCampaign(startedId);
    await waitForCampaign(env().admin, startedId, (c) => c.status === 'completed', 'it completes');

    const both = { id: { $in: [draftId, startedId] } };
    const drafts = await env().admin.queryCampaigns({ ...both, status: 'draft' } as never);
    expect(drafts.campaigns.map((c) => c.id)).toEqual([draftId]);
    const done = await env().admin.queryCampaigns({
      ...both,
      status: { $eq: 'completed' },
    } as never);
    expect(done.campaigns.map((c) => c.id)).toEqual([startedId]);
    await expectStreamError(env().admin.queryCampaigns({ colour: 'red' } as never), {
      code: 4,
      message: /colour/,
    });
  }, 60_000);
});
