import { randomUUID } from 'node:crypto';
import {
  renderCampaignTemplate,
  type CampaignAudience,
  type CampaignPreview,
  type CampaignProgress,
  type CampaignStatusName,
} from '@daohuu/domain';
import type { StreamChat, UserResponse } from 'stream-chat';
import { appError } from '../errors.ts';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { realmFilter, realmLowerBound } from './campaign-input.ts';

/** Creates the chat segment an audience describes, for the campaign that sends to it. */
async function createSegment(chat: StreamChat, audience: CampaignAudience): Promise<string> {
  const id = `chien-dich-${randomUUID()}`;
  if (audience.kind === 'all') await chat.createSegment('user', id, { all_users: true });
  else if (audience.kind === 'realm')
    await chat.createSegment('user', id, { filter: realmFilter(audience.minRealm) });
  else {
    await chat.createSegment('user', id, {});
    await chat.addSegmentTargets(id, audience.userIds);
  }
  return id;
}

/**
 * How many cultivators an audience reaches now, read from the product's own users (every one of them is a chat user,
 * synced on sign-up): the live count on the campaign screen writes nothing, in chat or here.
 */
export async function countAudience(
  db: Kysely<Database>,
  audience: CampaignAudience,
): Promise<number> {
  let query = db.selectFrom('user').select((eb) => eb.fn.countAll<number>().as('n'));
  if (audience.kind === 'realm') {
    const bound = realmLowerBound(audience.minRealm);
    if (bound !== null)
      query = query.where((eb) => eb(eb.fn.coalesce('tuVi', eb.lit(0)), '>', bound));
  } else if (audience.kind === 'users') {
    query = query.where('id', 'in', [...new Set(audience.userIds)]);
  }
  return Number((await query.executeTakeFirstOrThrow()).n);
}

async function chatUser(chat: StreamChat, id: string): Promise<UserResponse | undefined> {
  const { users } = await chat.queryUsers({ id: { $eq: id } }, {}, { limit: 1 });
  return users[0];
}

async function firstOfAudience(
  chat: StreamChat,
  audience: CampaignAudience,
): Promise<UserResponse | undefined> {
  if (audience.kind === 'users') return chatUser(chat, audience.userIds[0]!);
  const filter = audience.kind === 'realm' ? realmFilter(audience.minRealm) : {};
  const { users } = await chat.queryUsers(filter, { id: 1 }, { limit: 1 });
  return users[0];
}

function templateUser(user: UserResponse) {
  return { id: user.id, name: user.name ?? null, custom: { ...user } as Record<string, unknown> };
}

/** The message as `userId` (or the audience's first cultivator) will read it, sent by `senderId`. */
export async function previewFor(
  chat: StreamChat,
  input: { audience: CampaignAudience; text: string; userId?: string },
  senderId: string,
): Promise<CampaignPreview> {
  const receiver = input.userId
    ? await chatUser(chat, input.userId)
    : await firstOfAudience(chat, input.audience);
  if (!receiver) throw appError.userNotFound();
  const sender = (await chatUser(chat, senderId)) ?? { id: senderId, name: senderId };
  const text = renderCampaignTemplate(input.text, {
    receiver: templateUser(receiver),
    sender: templateUser(sender as UserResponse),
  });
  return { userId: receiver.id, name: receiver.name ?? receiver.id, text };
}

/** Creates and starts a campaign from the admin, one conversation per cultivator. */
export async function startCampaign(
  chat: StreamChat,
  input: { audience: CampaignAudience; text: string },
  senderId: string,
): Promise<CampaignProgress> {
  const segment = await createSegment(chat, input.audience);
  const id = `chien-dich-${randomUUID()}`;
  await chat.createCampaign({
    id,
    name: 'Chiến dịch từ trang quản trị',
    sender_id: senderId,
    segment_ids: [segment],
    message_template: { text: input.text },
    create_channels: true,
    show_channels: true,
  });
  const { campaign } = await chat.startCampaign(id);
  return progressOf(campaign);
}

interface CampaignLike {
  id: string;
  status: string;
  stats: object;
}

export function progressOf(campaign: CampaignLike): CampaignProgress {
  const stats = campaign.stats as Partial<Record<string, number>>;
  return {
    id: campaign.id,
    status: campaign.status as CampaignStatusName,
    targets: stats.stats_targets ?? 0,
    sent: stats.stats_messages_sent ?? 0,
    failed: stats.stats_users_failed ?? 0,
    channelsCreated: stats.stats_channels_created ?? 0,
  };
}

export async function readProgress(chat: StreamChat, id: string): Promise<CampaignProgress> {
  return progressOf((await chat.getCampaign(id)).campaign);
}

export async function stopCampaign(chat: StreamChat, id: string): Promise<CampaignProgress> {
  return progressOf((await chat.stopCampaign(id)).campaign);
}
