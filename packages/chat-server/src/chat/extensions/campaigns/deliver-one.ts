import { createHash } from 'node:crypto';
import { ChatError, chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChannelRow } from '../../core/channels/repo.ts';
import type { ChannelsService } from '../../core/channels/service.ts';
import { distinctId } from '../../core/channels/ids.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { PollCopier } from '../../core/extension-points.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { UsersService } from '../../core/users/service.ts';
import { isChannelTarget } from './channel-targets.ts';
import type { CampaignData } from './data.ts';
import { renderCampaignTemplate as renderTemplate, type TemplateUser } from '@daohuu/domain';

export interface DeliverContext {
  deps: ChatDeps;
  channels: ChannelsService;
  messages: MessagesService;
  users: UsersService;
  /** The extension point that copies the template poll for each message (empty without polls). */
  pollCopiers: readonly PollCopier[];
}

export type DeliveryOutcome =
  | { status: 'sent'; message_id: string; cid: string; channelCreated: boolean }
  | { status: 'failed'; message_id: null; cid: string | null; reason: string };

/**
 * The message id a target's campaign message gets, the same on every attempt: a resumed or doubled attempt finds
 * the message already stored ("already exists") instead of sending a second one.
 */
export function campaignMessageId(campaignId: string, userId: string): string {
  const hash = createHash('sha256').update(`${campaignId}\n${userId}`).digest('base64url');
  return `campaign-${hash.slice(0, 40)}`;
}

async function templateUser(ctx: DeliverContext, appId: string, id: string): Promise<TemplateUser> {
  const row = await ctx.users.getRow(appId, id);
  const custom = row ? (JSON.parse(row.custom) as JsonObject) : {};
  return { id, name: row?.name ?? null, custom };
}

/** The campaign's sender as `{{ sender.* }}` renders it: read once for a batch of targets, not once per target. */
export function campaignSender(
  ctx: DeliverContext,
  appId: string,
  data: CampaignData,
): Promise<TemplateUser> {
  return templateUser(ctx, appId, data.sender_id);
}

/** The members of a new conversation; `members_template` gives some of them a channel role or custom fields. */
function memberInputs(
  ids: string[],
  templated: NonNullable<NonNullable<CampaignData['channel_template']>['members_template']>,
): (string | JsonObject)[] {
  return ids.map((id) => {
    const entry = templated.find((m) => m.user_id === id);
    if (!entry) return id;
    return {
      ...(entry.custom ?? {}),
      user_id: id,
      ...(entry.channel_role ? { channel_role: entry.channel_role } : {}),
    };
  });
}

/** The channel the target receives the campaign in: the template's (id rendered per user) or the 1:1 conversation. */
async function channelFor(
  ctx: DeliverContext,
  server: Actor,
  data: CampaignData,
  people: { receiver: TemplateUser; sender: TemplateUser },
): Promise<{ type: string; id: string; created: boolean } | null> {
  const template = data.channel_template;
  const type = template?.type ?? 'messaging';
  // sender_mode `exclude`: the sender writes into the conversation without being one of its members.
  const sender = data.sender_mode === 'exclude' ? [] : [data.sender_id];
  const templated = template?.members_template ?? [];
  const members = [
    ...new Set([
      ...sender,
      people.receiver.id,
      ...(template?.members ?? []),
      ...templated.map((m) => m.user_id),
    ]),
  ];
  const id = template?.id ? renderTemplate(template.id, people) : undefined;
  const existing = id
    ? await ctx.channels.repo.get(server.appId, `${type}:${id}`)
    : await ctx.channels.repo.byDistinctKey(server.appId, type, distinctId(members).key);
  if (!existing && data.create_channels !== true) return null;
  const state = await ctx.channels.getOrCreate(server, type, id, {
    data: {
      ...(template?.custom ?? {}),
      ...(template?.team ? { team: template.team } : {}),
      members: memberInputs(members, templated),
      created_by_id: data.sender_id,
    },
  });
  return { type, id: state.channel.id, created: !existing };
}

/**
 * `sender_visibility` on a conversation the campaign just created: hidden or archived for the sender, who then
 * finds it only when someone answers (hidden) or in the archive. After the send, since a new message unhides.
 */
async function applySenderVisibility(
  ctx: DeliverContext,
  server: Actor,
  data: CampaignData,
  channel: { type: string; id: string; created: boolean },
): Promise<void> {
  if (!channel.created || data.sender_mode === 'exclude' || !data.sender_visibility) return;
  if (data.sender_visibility === 'hidden')
    await ctx.channels.hide(server, channel.type, channel.id, { user_id: data.sender_id });
  else
    await ctx.channels.updateMember(server, channel.type, channel.id, data.sender_id, {
      set: { archived: true },
    });
}

/** The message a campaign sends: the template's custom fields and attachments, its fixed id and `campaign_id`. */
function messageOf(
  data: CampaignData,
  campaignId: string,
  id: string,
  text: string,
  pollId: string | null,
): JsonObject {
  return {
    ...(data.message_template.custom ?? {}),
    id,
    text,
    user_id: data.sender_id,
    ...(data.message_template.attachments
      ? { attachments: data.message_template.attachments }
      : {}),
    ...(pollId ? { poll_id: pollId } : {}),
    campaign_id: campaignId,
  };
}

/**
 * The poll the target's message carries: its own copy of the template poll, created by the sender, since a poll is
 * on one message at most and one target's votes must not show on another's. The copy's id follows from the message
 * id, so a resumed attempt reuses it. Null without a template poll.
 */
async function pollFor(
  ctx: DeliverContext,
  appId: string,
  data: CampaignData,
  messageId: string,
): Promise<string | null> {
  const sourceId = data.message_template.poll_id;
  if (!sourceId) return null;
  const copier = ctx.pollCopiers[0];
  if (!copier) throw chatError.input('polls are not available on this server');
  const id = `${messageId}-poll`;
  if (!(await copier.copy({ appId, sourceId, id, createdById: data.sender_id })))
    throw chatError.input(`message_template.poll_id: poll ${sourceId} no longer exists`);
  return id;
}

/**
 * Sends one target (a user id, or a channel's cid) its message through the normal send path; `sender` is
 * `campaignSender`'s.
 */
export async function deliverOne(
  ctx: DeliverContext,
  appId: string,
  campaignId: string,
  data: CampaignData,
  target: string,
  sender: TemplateUser,
): Promise<DeliveryOutcome> {
  const server: Actor = { appId, userId: null, role: 'admin', isServer: true, connectionId: null };
  if (isChannelTarget(target))
    return deliverToChannel(ctx, server, campaignId, data, target, sender);
  const userId = target;
  const people = { receiver: await templateUser(ctx, appId, userId), sender };
  let pollId: string | null = null;
  try {
    const channel = await channelFor(ctx, server, data, people);
    if (!channel)
      return { status: 'failed', message_id: null, cid: null, reason: 'no channel to deliver to' };
    const cid = `${channel.type}:${channel.id}`;
    if (data.show_channels === true)
      await ctx.channels.show(server, channel.type, channel.id, { user_id: userId });
    const id = campaignMessageId(campaignId, userId);
    pollId = await pollFor(ctx, appId, data, id);
    await sendOnce(
      ctx,
      server,
      channel,
      messageOf(data, campaignId, id, renderTemplate(data.message_template.text, people), pollId),
      data.skip_push === true,
    );
    await applySenderVisibility(ctx, server, data, channel);
    return { status: 'sent', message_id: id, cid, channelCreated: channel.created };
  } catch (error) {
    // A refusal for this target (banned sender, frozen channel…) fails it alone; anything else stops the run.
    if (!(error instanceof ChatError) || error.statusCode >= 500) throw error;
    if (pollId) await ctx.pollCopiers[0]?.discard(appId, pollId);
    return { status: 'failed', message_id: null, cid: null, reason: error.message };
  }
}

async function sendOnce(
  ctx: DeliverContext,
  server: Actor,
  channel: { type: string; id: string },
  message: JsonObject,
  skipPush: boolean,
): Promise<void> {
  try {
    await ctx.messages.send(server, channel.type, channel.id, { message, skip_push: skipPush });
  } catch (error) {
    // Sent by an earlier attempt that stopped before recording it.
    if (error instanceof ChatError && /already exists/.test(error.message)) return;
    throw error;
  }
}

// `{{ channel.name }}`, `{{ channel.id }}`, `{{ channel.<custom> }}`: what a template can say of a channel target.
const CHANNEL_PLACEHOLDER = /\{\{\s*channel\.([A-Za-z0-9_]{1,64})\s*\}\}/g;

/** The channel's value for a placeholder; unknown fields render empty, like the user placeholders. */
function channelValue(channel: ChannelRow, field: string): string {
  if (field === 'name') return channel.name || channel.id;
  if (field === 'id' || field === 'type' || field === 'cid' || field === 'team')
    return channel[field] ?? '';
  if (field === 'member_count') return String(channel.member_count);
  const custom = JSON.parse(channel.custom) as JsonObject;
  const value = Object.hasOwn(custom, field) ? custom[field] : undefined;
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/**
 * A channel target gets one message from the sender, member or not: campaigns act with the server's rights, as
 * Stream's do. There is no single receiver, so `{{ receiver.* }}` renders empty and `{{ channel.* }}` fills in.
 */
async function deliverToChannel(
  ctx: DeliverContext,
  server: Actor,
  campaignId: string,
  data: CampaignData,
  cid: string,
  sender: TemplateUser,
): Promise<DeliveryOutcome> {
  const channel = await ctx.channels.repo.get(server.appId, cid);
  if (!channel || channel.deleted_at)
    return { status: 'failed', message_id: null, cid, reason: 'the channel does not exist' };
  const people = { receiver: { id: '', name: null, custom: {} }, sender };
  const text = data.message_template.text.replace(CHANNEL_PLACEHOLDER, (_m, field: string) =>
    channelValue(channel, field),
  );
  const id = campaignMessageId(campaignId, cid);
  let pollId: string | null = null;
  try {
    pollId = await pollFor(ctx, server.appId, data, id);
    await sendOnce(
      ctx,
      server,
      { type: channel.type, id: channel.id },
      messageOf(data, campaignId, id, renderTemplate(text, people), pollId),
      data.skip_push === true,
    );
  } catch (error) {
    if (!(error instanceof ChatError) || error.statusCode >= 500) throw error;
    if (pollId) await ctx.pollCopiers[0]?.discard(server.appId, pollId);
    return { status: 'failed', message_id: null, cid, reason: error.message };
  }
  return { status: 'sent', message_id: id, cid, channelCreated: false };
}
