import { describe, expect, it } from 'vitest';
import {
  expectStreamError,
  uniqueId,
  useContractEnv,
  type ContractEnv,
} from '../contract/helpers.ts';
import { cultivators, waitForCampaign } from './support.ts';

interface PollOnMessage {
  id: string;
  name: string;
  created_by_id: string;
  vote_count: number;
  options: { id: string; text: string }[];
}

/** The campaign message `target` received, as they read it in their conversation with the sender. */
async function receivedMessage(env: ContractEnv, target: string, campaignId: string) {
  const [channel] = await env.admin.queryChannels({ members: { $in: [target] } }, {}, {
    user_id: target,
  } as never);
  const message = channel?.state.messages.find(
    (m) => (m as { campaign_id?: unknown }).campaign_id === campaignId,
  );
  if (!channel || !message) throw new Error(`${target} has no message of campaign ${campaignId}`);
  return {
    channel,
    message: message as typeof message & { poll_id?: string; poll?: PollOnMessage },
  };
}

async function templatePoll(env: ContractEnv, sender: string) {
  const { poll } = await env.admin.createPoll(
    {
      id: uniqueId('dai-hoi'),
      name: 'Đại hội tông môn tổ chức ở đâu?',
      options: [{ text: 'Côn Lôn' }, { text: 'Nga Mi' }],
    },
    sender,
  );
  return poll;
}

async function runCampaign(env: ContractEnv, body: Record<string, unknown>) {
  const id = uniqueId('cc');
  await env.admin.createCampaign({ id, create_channels: true, ...body } as never);
  await env.admin.startCampaign(id);
  await waitForCampaign(env.admin, id, (c) => c.status === 'completed', 'it completes');
  return id;
}

describe('a campaign whose message template names a poll', () => {
  const env = useContractEnv();

  it("gives each target's message its own copy of the template poll, created by the sender", async () => {
    const { sender, targets } = await cultivators(env(), 'bk', 2);
    const template = await templatePoll(env(), sender);
    const id = await runCampaign(env(), {
      sender_id: sender,
      user_ids: targets,
      message_template: { text: 'Mời {{ receiver.name }} bỏ phiếu', poll_id: template.id },
    });
    const polls: PollOnMessage[] = [];
    for (const target of targets) {
      const { message } = await receivedMessage(env(), target, id);
      expect(message.poll).toMatchObject({
        name: 'Đại hội tông môn tổ chức ở đâu?',
        created_by_id: sender,
      });
      expect(message.poll!.options.map((o) => o.text)).toEqual(['Côn Lôn', 'Nga Mi']);
      expect(message.poll_id).toBe(message.poll!.id);
      polls.push(message.poll!);
    }
    expect(new Set([template.id, ...polls.map((p) => p.id)]).size).toBe(3);
  });

  it("keeps one target's votes off the other targets' polls and off the template", async () => {
    const { sender, targets } = await cultivators(env(), 'phieu', 2);
    const template = await templatePoll(env(), sender);
    const id = await runCampaign(env(), {
      sender_id: sender,
      user_ids: targets,
      message_template: { text: 'Bỏ phiếu nào', poll_id: template.id },
    });
    const first = await receivedMessage(env(), targets[0]!, id);
    const second = await receivedMessage(env(), targets[1]!, id);
    const option = first.message.poll!.options[1]!;
    await env().admin.castPollVote(
      first.message.id,
      first.message.poll!.id,
      { option_id: option.id },
      targets[0],
    );
    expect((await env().admin.getPoll(first.message.poll!.id)).poll.vote_count).toBe(1);
    const other = (await env().admin.getPoll(second.message.poll!.id)).poll;
    expect(other.vote_count).toBe(0);
    expect(other.vote_counts_by_option).toEqual({});
    expect((await env().admin.getPoll(template.id)).poll.vote_count).toBe(0);
    // A poll is voted on through the one message carrying it: another target's message does not reach it.
    await expectStreamError(
      env().admin.castPollVote(
        second.message.id,
        first.message.poll!.id,
        { option_id: option.id },
        targets[0],
      ),
      { code: 16, message: /does not exist on message/ },
    );
  });

  it('refuses an unknown or empty poll_id at create and at update with code 4 naming the field', async () => {
    const { sender, targets } = await cultivators(env(), 'sai-poll', 1);
    const base = { sender_id: sender, user_ids: targets };
    for (const pollId of [uniqueId('khong-co'), ''])
      await expectStreamError(
        env().admin.createCampaign({
          ...base,
          message_template: { text: 'x', poll_id: pollId },
        } as never),
        { code: 4, message: /poll_id/ },
      );
    const id = uniqueId('cc');
    await env().admin.createCampaign({ id, ...base, message_template: { text: 'x' } } as never);
    await expectStreamError(
      env().admin.updateCampaign(id, {
        ...base,
        message_template: { text: 'x', poll_id: uniqueId('khong-co') },
      } as never),
      { code: 4, message: /poll_id/ },
    );
  });

  it('fails every target, sending nothing, when the template poll was deleted before the start', async () => {
    const { sender, targets } = await cultivators(env(), 'mat-poll', 2);
    const template = await templatePoll(env(), sender);
    const id = uniqueId('cc');
    await env().admin.createCampaign({
      id,
      sender_id: sender,
      user_ids: targets,
      create_channels: true,
      message_template: { text: 'Bỏ phiếu nào', poll_id: template.id },
    } as never);
    await env().admin.deletePoll(template.id, sender);
    await env().admin.startCampaign(id);
    const done = await waitForCampaign(env().admin, id, (c) => c.status === 'completed', 'done');
    expect(done.stats).toMatchObject({ stats_messages_sent: 0, stats_users_failed: 2 });
  });

  it('fails a target whose channel type has polls off, leaving no copy of the poll behind', async () => {
    const { sender, targets } = await cultivators(env(), 'tat-poll', 1);
    const type = uniqueId('khong-poll')
      .replace(/[^a-z0-9]/g, '')
      .slice(0, 20);
    await env().admin.createChannelType({ name: type, polls: false } as never);
    const template = await templatePoll(env(), sender);
    const id = await runCampaign(env(), {
      sender_id: sender,
      user_ids: targets,
      channel_template: { type },
      message_template: { text: 'Bỏ phiếu nào', poll_id: template.id },
    });
    const { campaign } = await env().admin.getCampaign(id);
    expect(campaign.stats).toMatchObject({ stats_messages_sent: 0, stats_users_failed: 1 });
    const { polls } = await env().admin.queryPolls({ created_by_id: sender }, [], {}, sender);
    expect(polls.map((p) => p.id)).toEqual([template.id]);
  });
});

describe('stats_users_read', () => {
  const env = useContractEnv();

  it('counts the targets who have read their campaign message', async () => {
    const { sender, targets } = await cultivators(env(), 'doc', 2);
    const id = await runCampaign(env(), {
      sender_id: sender,
      user_ids: targets,
      message_template: { text: 'Đọc đi {{ receiver.name }}' },
    });
    expect((await env().admin.getCampaign(id)).campaign.stats.stats_users_read).toBe(0);
    const { channel } = await receivedMessage(env(), targets[0]!, id);
    await channel.markRead({ user_id: targets[0]! } as never);
    await waitForCampaign(
      env().admin,
      id,
      (c) => (c.stats as { stats_users_read?: number }).stats_users_read === 1,
      'one target has read it',
    );
    const { campaign } = await env().admin.getCampaign(id);
    expect(campaign.stats.stats_users_read).toBe(1);
  });
});
