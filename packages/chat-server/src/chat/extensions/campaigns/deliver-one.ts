import { createHash } from 'node:crypto';
import { ChatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChannelsService } from '../../core/channels/service.ts';
import { distinctId } from '../../core/channels/ids.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { CampaignData } from './data.ts';
import { renderCampaignTemplate as renderTemplate, type TemplateUser } from '@daohuu/domain';

export interface DeliverContext {
  deps: ChatDeps;
  channels: ChannelsService;
  messages: MessagesService;
  users: UsersService;
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

/** The channel the target receives the campaign in: the template's (id rendered per user) or the 1:1 conversation. */
async function channelFor(
  ctx: DeliverContext,
  server: Actor,
  data: CampaignData,
  people: { receiver: TemplateUser; sender: TemplateUser },
): Promise<{ type: string; id: string; created: boolean } | null> {
  const template = data.channel_template;
  const type = template?.type ?? 'messaging';
  const members = [...new Set([data.sender_id, people.receiver.id, ...(template?.members ?? [])])];
  const id = template?.id ? renderTemplate(template.id, people) : undefined;
  const existing = id
    ? await ctx.channels.repo.get(server.appId, `${type}:${id}`)
    : await ctx.channels.repo.byDistinctKey(server.appId, type, distinctId(members).key);
  if (!existing && data.create_channels !== true) return null;
  const state = await ctx.channels.getOrCreate(server, type, id, {
    data: {
      ...(template?.custom ?? {}),
      ...(template?.team ? { team: template.team } : {}),
      members,
      created_by_id: data.sender_id,
    },
  });
  return { type, id: state.channel.id, created: !existing };
}

/** Sends one target its message through the normal send path (events, unread, search all follow). */
export async function deliverOne(
  ctx: DeliverContext,
  appId: string,
  campaignId: string,
  data: CampaignData,
  userId: string,
): Promise<DeliveryOutcome> {
  const server: Actor = { appId, userId: null, role: 'admin', isServer: true, connectionId: null };
  const people = {
    receiver: await templateUser(ctx, appId, userId),
    sender: await templateUser(ctx, appId, data.sender_id),
  };
  try {
    const channel = await channelFor(ctx, server, data, people);
    if (!channel)
      return { status: 'failed', message_id: null, cid: null, reason: 'no channel to deliver to' };
    const cid = `${channel.type}:${channel.id}`;
    if (data.show_channels === true)
      await ctx.channels.show(server, channel.type, channel.id, { user_id: userId });
    const id = campaignMessageId(campaignId, userId);
    await sendOnce(
      ctx,
      server,
      channel,
      {
        ...(data.message_template.custom ?? {}),
        id,
        text: renderTemplate(data.message_template.text, people),
        user_id: data.sender_id,
        ...(data.message_template.attachments
          ? { attachments: data.message_template.attachments }
          : {}),
        campaign_id: campaignId,
      },
      data.skip_push === true,
    );
    return { status: 'sent', message_id: id, cid, channelCreated: channel.created };
  } catch (error) {
    // A refusal for this target (banned sender, frozen channel…) fails it alone; anything else stops the run.
    if (!(error instanceof ChatError) || error.statusCode >= 500) throw error;
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
