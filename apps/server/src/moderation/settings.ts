import type {
  BanUserInput,
  BlocklistBehavior,
  ChannelTypeBlocklist,
  ModerationBan,
  ModerationBansPage,
  ModerationBlocklists,
  SlowModeChannel,
} from '@daohuu/domain';
import type { BannedUsersResponse, StreamChat } from 'stream-chat';
import { PUBLIC_CHANNELS } from '../chat/public-channels.ts';
import { appError } from '../errors.ts';
import { chatCall } from './chat-errors.ts';

const BANS_PAGE = 50;
/** queryBannedUsers refuses a larger offset (packages/chat-server, compatibility table). */
export const MAX_BANS_OFFSET = 1000;

/** The channel types the product creates channels of (apps/server chat, packages/chat-server channel-types). */
export const PRODUCT_CHANNEL_TYPES = ['messaging', 'sect', 'team'] as const;

type Json = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

type BanResponse = NonNullable<BannedUsersResponse['bans']>[number];

function toModerationBan(ban: BanResponse): ModerationBan {
  const raw = ban as BanResponse & Json;
  return {
    userId: ban.user.id,
    userName: text(ban.user.name),
    reason: text(ban.reason),
    expires: text(ban.expires),
    bannedById: ban.banned_by?.id ?? null,
    createdAt: text(raw.created_at),
    shadow: raw.shadow === true,
  };
}

/**
 * One page of the app-wide bans still in force, newest first; channel bans are the channel moderators' business.
 * `next` is the following page's offset while the chat server returned a full page.
 */
export async function listBans(
  client: StreamChat,
  { offset }: { offset: number },
): Promise<ModerationBansPage> {
  const { bans = [] } = await chatCall(() =>
    client.queryBannedUsers({}, [{ created_at: -1 }], {
      limit: BANS_PAGE,
      offset,
      exclude_expired_bans: true,
    }),
  );
  const following = offset + BANS_PAGE;
  return {
    bans: bans.filter((ban) => !ban.channel).map(toModerationBan),
    next: bans.length === BANS_PAGE && following <= MAX_BANS_OFFSET ? String(following) : null,
  };
}

export async function banUser(
  client: StreamChat,
  { userId, reason, durationMinutes, shadow }: BanUserInput,
  moderatorId: string,
): Promise<void> {
  const options = {
    banned_by_id: moderatorId,
    ...(reason ? { reason } : {}),
    ...(durationMinutes ? { timeout: durationMinutes } : {}),
  };
  await chatCall(() =>
    shadow ? client.shadowBan(userId, options) : client.banUser(userId, options),
  );
}

export async function unbanUser(
  client: StreamChat,
  userId: string,
  shadow: boolean,
): Promise<void> {
  await chatCall(() => (shadow ? client.removeShadowBan(userId) : client.unbanUser(userId)));
}

async function channelTypeSetting(client: StreamChat, type: string): Promise<ChannelTypeBlocklist> {
  const config = (await chatCall(() => client.getChannelType(type))) as unknown as Json;
  const behavior = config.blocklist_behavior;
  return {
    type,
    blocklist: text(config.blocklist),
    behavior: behavior === 'flag' || behavior === 'block' ? behavior : null,
  };
}

export async function readBlocklists(client: StreamChat): Promise<ModerationBlocklists> {
  const [{ blocklists }, channelTypes] = await Promise.all([
    chatCall(() => client.listBlockLists()),
    Promise.all(PRODUCT_CHANNEL_TYPES.map((type) => channelTypeSetting(client, type))),
  ]);
  return {
    blocklists: blocklists
      .map(({ name, words }) => ({ name, words: words ?? [] }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    channelTypes,
  };
}

/** Creates the blocklist or replaces its words. */
export async function saveBlocklist(
  client: StreamChat,
  name: string,
  words: string[],
): Promise<void> {
  const { blocklists } = await chatCall(() => client.listBlockLists());
  if (blocklists.some((list) => list.name === name)) {
    await chatCall(() => client.updateBlockList(name, { words }));
  } else {
    await chatCall(() => client.createBlockList({ name, words }));
  }
}

export async function setChannelTypeBlocklist(
  client: StreamChat,
  type: string,
  { blocklist, behavior }: { blocklist: string | null; behavior: BlocklistBehavior },
): Promise<ChannelTypeBlocklist> {
  if (!(PRODUCT_CHANNEL_TYPES as readonly string[]).includes(type)) {
    throw appError.moderationNotFound();
  }
  await chatCall(() =>
    client.updateChannelType(type, { blocklist: blocklist ?? '', blocklist_behavior: behavior }),
  );
  return channelTypeSetting(client, type);
}

function splitCid(cid: string): [string, string] {
  const at = cid.indexOf(':');
  return [cid.slice(0, at), cid.slice(at + 1)];
}

export async function readSlowMode(client: StreamChat, cid: string): Promise<SlowModeChannel> {
  const [type, id] = splitCid(cid);
  const state = await chatCall(() =>
    client.channel(type, id).query({ state: true, watch: false, messages: { limit: 0 } }),
  );
  const channel = state.channel as typeof state.channel & Json;
  return { cid, name: text(channel.name), cooldown: Number(channel.cooldown ?? 0) || 0 };
}

/** The sect channels' slow mode, plus `extraCid` when a moderator looks one up. */
export async function listSlowMode(
  client: StreamChat,
  extraCid?: string,
): Promise<SlowModeChannel[]> {
  const cids = PUBLIC_CHANNELS.map(({ type, id }) => `${type}:${id}`);
  if (extraCid && !cids.includes(extraCid)) cids.push(extraCid);
  return Promise.all(cids.map((cid) => readSlowMode(client, cid)));
}

/** Turns slow mode on (1–120 s) or off (0) for one channel. */
export async function setSlowMode(
  client: StreamChat,
  cid: string,
  cooldown: number,
): Promise<SlowModeChannel> {
  const [type, id] = splitCid(cid);
  await chatCall(() => client.channel(type, id).updatePartial({ set: { cooldown } }));
  return readSlowMode(client, cid);
}
