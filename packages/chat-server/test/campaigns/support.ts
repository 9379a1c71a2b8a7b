import type { StreamChat } from 'stream-chat';
import { createUsers, EVENT_TIMEOUT_MS, uniqueId, type ContractEnv } from '../contract/helpers.ts';

/** Campaign stats as our server reports them (Stream's counters plus stats_targets and stats_users_failed). */
export interface Stats {
  stats_targets: number;
  stats_messages_sent: number;
  stats_users_failed: number;
  stats_channels_created: number;
  progress: number;
}

export async function campaignOf(admin: StreamChat, id: string) {
  const { campaign } = await admin.getCampaign(id);
  return { ...campaign, stats: campaign.stats as unknown as Stats };
}

/** Polls the campaign (as the admin screen does) until `check` holds; bounded by `timeoutMs`. */
export async function waitForCampaign(
  admin: StreamChat,
  id: string,
  check: (campaign: Awaited<ReturnType<typeof campaignOf>>) => boolean,
  what: string,
  timeoutMs = EVENT_TIMEOUT_MS * 12,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const campaign = await campaignOf(admin, id);
    if (check(campaign)) return campaign;
    if (Date.now() > deadline)
      throw new Error(
        `timed out waiting until ${what} (status ${campaign.status}, ${JSON.stringify(campaign.stats)})`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A sender and `count` cultivators with names and tu vi, created server-side; returns their ids. */
export async function cultivators(
  env: ContractEnv,
  prefix: string,
  count: number,
  tuVi: (index: number) => number = (index) => index * 1000,
): Promise<{ sender: string; targets: string[] }> {
  const sender = uniqueId(`${prefix}-tong-mon`);
  const targets = Array.from({ length: count }, (_, index) => uniqueId(`${prefix}-${index}`));
  await createUsers(env, [{ id: sender, name: 'Tông Môn', role: 'admin' } as never]);
  // Small batches: each upsert stays well within the client's 3 s timeout on a loaded machine.
  for (let i = 0; i < targets.length; i += 25)
    await env.admin.upsertUsers(
      targets.slice(i, i + 25).map((id, offset) => ({
        id,
        name: `Đạo hữu ${id}`,
        tu_vi: tuVi(i + offset),
      })),
    );
  return { sender, targets };
}

/**
 * How many messages of campaign `campaignId` each target holds, read from every channel the sender is in (the
 * campaign's conversations), a page at a time. A duplicate send would show as a count of 2.
 */
export async function campaignMessageCounts(
  env: ContractEnv,
  sender: string,
  campaignId: string,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (let offset = 0; ; offset += 30) {
    const channels = await env.admin.queryChannels(
      { members: { $in: [sender] } },
      { created_at: 1 },
      { limit: 30, offset, message_limit: 10, user_id: sender } as never,
    );
    for (const channel of channels)
      for (const message of channel.state.messages) {
        if ((message as { campaign_id?: unknown }).campaign_id !== campaignId) continue;
        const target = Object.keys(channel.state.members).find((id) => id !== sender) ?? '';
        counts.set(target, (counts.get(target) ?? 0) + 1);
      }
    if (channels.length < 30) return counts;
  }
}
