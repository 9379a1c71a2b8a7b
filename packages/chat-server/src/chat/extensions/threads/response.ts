import type { Actor } from '../../core/access/access.ts';
import { inWindow, viewerWindows, type HistoryWindow } from '../../core/access/visibility.ts';
import type { ChannelRow } from '../../core/channels/repo.ts';
import { channelUserIds, toChannelResponse } from '../../core/channels/serialize.ts';
import type { ChannelType } from '../../core/channel-types.ts';
import { channelTypeOf } from '../../core/channel-types/overrides.ts';
import { compact, parseObject, type JsonObject } from '../../core/json.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import { userOf, type MessageResponse } from '../../core/messages/serialize.ts';
import type { ReadWithUnread } from '../../core/reads/repo.ts';
import type { ThreadParticipantRow, ThreadRow } from '../../core/replies/repo.ts';
import type { UserResponse } from '../../core/users/serialize.ts';
import type { ThreadOptions, ThreadsContext } from './context.ts';

/** What `buildThreads` loads for a page of threads, shared by every thread of the page. */
interface LoadedThreads {
  parents: Map<string, MessageRow>;
  assembled: Map<string, MessageResponse>;
  channelRows: Map<string, ChannelRow>;
  participants: Map<string, ThreadParticipantRow[]>;
  threadReads: Map<string, ReadWithUnread[]>;
  replies: Map<string, MessageRow[]>;
  usersById: Map<string, UserResponse>;
  extras: Map<string, Record<string, unknown>>[];
  windowOf: (cid: string) => HistoryWindow;
  typeOf: (channel: ChannelRow) => ChannelType | undefined;
}

function participantResponses(
  row: ThreadRow,
  loaded: LoadedThreads,
  participantLimit: number,
): JsonObject[] {
  const participants = (loaded.participants.get(row.parent_message_id) ?? []).slice(
    0,
    participantLimit,
  );
  return participants.map((p) => ({
    channel_cid: row.cid,
    thread_id: row.parent_message_id,
    user_id: p.user_id,
    user: userOf(loaded.usersById, p.user_id),
    created_at: p.created_at,
    last_thread_message_at: p.last_thread_message_at ?? undefined,
  }));
}

function readResponses(row: ThreadRow, loaded: LoadedThreads): JsonObject[] {
  return (loaded.threadReads.get(row.parent_message_id) ?? []).map((r) =>
    compact({
      user: userOf(loaded.usersById, r.user_id),
      last_read: r.last_read,
      last_read_message_id: r.last_read_message_id ?? undefined,
      unread_messages: r.unread,
    }),
  );
}

/** One thread's response, or none when its parent, channel or type is gone or its parent is hidden from the viewer. */
function threadResponse(
  row: ThreadRow,
  loaded: LoadedThreads,
  participantLimit: number,
): JsonObject | undefined {
  const parent = loaded.assembled.get(row.parent_message_id);
  const channel = loaded.channelRows.get(row.cid);
  const type = channel ? loaded.typeOf(channel) : undefined;
  const parentRow = loaded.parents.get(row.parent_message_id);
  if (!parent || !parentRow || !channel || !type || !inWindow(loaded.windowOf(row.cid), parentRow))
    return undefined;
  return compact({
    ...parseObject(row.custom),
    parent_message_id: row.parent_message_id,
    parent_message: parent,
    channel_cid: row.cid,
    channel: toChannelResponse(channel, type, loaded.usersById),
    title: row.title ?? undefined,
    created_at: row.created_at,
    updated_at: row.updated_at,
    last_message_at: row.last_message_at ?? undefined,
    deleted_at: row.deleted_at ?? undefined,
    reply_count: parent.reply_count,
    participant_count: row.participant_count,
    active_participant_count: row.participant_count,
    created_by_user_id: row.created_by_id,
    created_by: userOf(loaded.usersById, row.created_by_id),
    latest_replies: (loaded.replies.get(row.parent_message_id) ?? []).map((m) =>
      loaded.assembled.get(m.id)!,
    ),
    thread_participants: participantResponses(row, loaded, participantLimit),
    read: readResponses(row, loaded),
    ...Object.assign({}, ...loaded.extras.map((extra) => extra.get(row.parent_message_id))),
  });
}

/** Each thread's latest replies the viewer may see, by parent message id. */
async function latestReplies(
  ctx: ThreadsContext,
  appId: string,
  rows: ThreadRow[],
  windowOf: (cid: string) => HistoryWindow,
  replyLimit: number,
): Promise<Map<string, MessageRow[]>> {
  const replies = new Map<string, MessageRow[]>();
  await Promise.all(
    rows.map(async (row) => {
      const window = windowOf(row.cid);
      const page = await ctx.messages.page(
        { appId, parentId: row.parent_message_id, visibleAfter: window.hiddenThrough },
        { limit: replyLimit, offset: 0 },
      );
      replies.set(
        row.parent_message_id,
        page.filter((m) => inWindow(window, m)),
      );
    }),
  );
  return replies;
}

/** Everyone the page's responses name: thread and channel creators, participants, readers. */
function mentionedUserIds(
  rows: ThreadRow[],
  participants: Map<string, ThreadParticipantRow[]>,
  threadReads: Map<string, ReadWithUnread[]>,
  channelRows: Map<string, ChannelRow>,
): Set<string> {
  const userIds = new Set<string>();
  for (const row of rows) userIds.add(row.created_by_id);
  for (const list of participants.values()) for (const p of list) userIds.add(p.user_id);
  for (const list of threadReads.values()) for (const r of list) userIds.add(r.user_id);
  for (const channel of channelRows.values())
    for (const id of channelUserIds(channel)) userIds.add(id);
  return userIds;
}

/** Loads everything a page of threads needs in bulk (the queries do not grow with the page's size). */
async function loadThreads(
  ctx: ThreadsContext,
  actor: Actor,
  rows: ThreadRow[],
  options: ThreadOptions,
): Promise<LoadedThreads> {
  const appId = actor.appId;
  const parentIds = rows.map((r) => r.parent_message_id);
  const [parents, channelRows, participants, threadReads] = await Promise.all([
    ctx.messages.getMany(appId, parentIds),
    ctx.channels.repo.getMany(
      appId,
      rows.map((r) => r.cid),
    ),
    ctx.repo.participants(appId, parentIds),
    ctx.reads.threadReads(appId, parentIds),
  ]);
  const windowOf = await viewerWindows(
    ctx.messages,
    appId,
    rows.map((r) => r.cid),
    actor.userId,
  );
  const replies = await latestReplies(ctx, appId, rows, windowOf, options.replyLimit);
  const allMessages = [...parents.values(), ...[...replies.values()].flat()];
  const assembled = new Map(
    (await ctx.assembler.assemble(appId, allMessages, actor.userId)).map((m) => [m.id, m]),
  );
  const userIds = mentionedUserIds(rows, participants, threadReads, channelRows);
  const usersById = await ctx.users.responses(appId, userIds);
  const keys = rows.map((r) => ({ cid: r.cid, parentId: r.parent_message_id }));
  const extras = await Promise.all((ctx.enrichers ?? []).map((enrich) => enrich(actor, keys)));
  return {
    parents,
    assembled,
    channelRows,
    participants,
    threadReads,
    replies,
    usersById,
    extras,
    windowOf,
    typeOf: (channel) => channelTypeOf(ctx.deps.channelTypes, channel),
  };
}

/** The responses of a page of threads, leaving out those gone or hidden from the viewer. */
export async function buildThreads(
  ctx: ThreadsContext,
  actor: Actor,
  rows: ThreadRow[],
  options: ThreadOptions,
): Promise<JsonObject[]> {
  if (rows.length === 0) return [];
  const loaded = await loadThreads(ctx, actor, rows, options);
  return rows
    .map((row) => threadResponse(row, loaded, options.participantLimit))
    .filter((thread): thread is JsonObject => thread !== undefined);
}
