import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import { toChannelResponse } from '../../core/channels/serialize.ts';
import type { ChannelsService } from '../../core/channels/service.ts';
import { channelTypeByName } from '../../core/channel-types.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import {
  compact,
  isPlainObject,
  parseObject,
  pickCustom,
  type JsonObject,
} from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageRow, MessagesRepo } from '../../core/messages/repo.ts';
import { userOf, type MessageResponse } from '../../core/messages/serialize.ts';
import type { ChannelRow } from '../../core/channels/repo.ts';
import type { UserResponse } from '../../core/users/serialize.ts';
import { cursorOffset } from '../../core/query/bounds.ts';
import {
  hiddenAudience,
  inWindow,
  type HistoryWindow,
  readableChannel,
  viewerWindow,
  viewerWindows,
  visibleToViewer,
} from '../../core/access/visibility.ts';
import { compileFilter } from '../../core/query/filter.ts';
import type { ReadsRepo, ReadWithUnread } from '../../core/reads/repo.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { ThreadParticipantRow, ThreadRow, ThreadsRepo } from '../../core/replies/repo.ts';

const RESERVED = new Set([
  'title',
  'parent_message_id',
  'parent_message',
  'channel',
  'channel_cid',
  'created_at',
  'updated_at',
  'deleted_at',
  'last_message_at',
  'reply_count',
  'participant_count',
  'thread_participants',
  'latest_replies',
  'read',
  'created_by',
  'created_by_user_id',
  'active_participant_count',
  'draft',
]);

export interface ThreadOptions {
  replyLimit: number;
  participantLimit: number;
}

/** Per-viewer extras a feature module adds to thread responses (drafts → `draft`), by parent message id. */
export type ThreadEnricher = (
  actor: Actor,
  threads: readonly { cid: string; parentId: string }[],
) => Promise<Map<string, Record<string, unknown>>>;

export interface ThreadsService {
  query(actor: Actor, body: JsonObject): Promise<{ threads: JsonObject[]; next?: string }>;
  get(actor: Actor, parentId: string, query: JsonObject): Promise<{ thread: JsonObject }>;
  partialUpdate(actor: Actor, parentId: string, body: JsonObject): Promise<{ thread: JsonObject }>;
}

function intOf(value: unknown, fallback: number, max: number, name: string): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n > max)
    throw chatError.input(`${name} must be between 0 and ${max}`);
  return n;
}

/** What `build` loads for a page of threads, shared by every thread of the page. */
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
}

/** One thread's response, or none when its parent, channel or type is gone or its parent is hidden from the viewer. */
function threadResponse(
  row: ThreadRow,
  loaded: LoadedThreads,
  participantLimit: number,
): JsonObject | undefined {
  const parent = loaded.assembled.get(row.parent_message_id);
  const channel = loaded.channelRows.get(row.cid);
  const type = channel ? channelTypeByName(channel.type) : undefined;
  const parentRow = loaded.parents.get(row.parent_message_id);
  if (!parent || !parentRow || !channel || !type || !inWindow(loaded.windowOf(row.cid), parentRow))
    return undefined;
  const threadParticipants = (loaded.participants.get(row.parent_message_id) ?? []).slice(
    0,
    participantLimit,
  );
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
    thread_participants: threadParticipants.map((p) => ({
      channel_cid: row.cid,
      thread_id: row.parent_message_id,
      user_id: p.user_id,
      user: userOf(loaded.usersById, p.user_id),
      created_at: p.created_at,
      last_thread_message_at: p.last_thread_message_at ?? undefined,
    })),
    read: (loaded.threadReads.get(row.parent_message_id) ?? []).map((r) =>
      compact({
        user: userOf(loaded.usersById, r.user_id),
        last_read: r.last_read,
        last_read_message_id: r.last_read_message_id ?? undefined,
        unread_messages: r.unread,
      }),
    ),
    ...Object.assign({}, ...loaded.extras.map((extra) => extra.get(row.parent_message_id))),
  });
}

/** What the threads service is built from. */
export interface ThreadsContext {
  deps: ChatDeps;
  repo: ThreadsRepo;
  messages: MessagesRepo;
  reads: ReadsRepo;
  channels: ChannelsService;
  assembler: MessageAssembler;
  users: UsersService;
  events: EventPublisher;
  enrichers?: readonly ThreadEnricher[];
}

export function createThreadsService(context: ThreadsContext): ThreadsService {
  const { deps, repo, messages, reads, channels, assembler, users, events } = context;
  const enrichers = context.enrichers ?? [];
  async function build(
    actor: Actor,
    rows: ThreadRow[],
    options: ThreadOptions,
  ): Promise<JsonObject[]> {
    if (rows.length === 0) return [];
    const appId = actor.appId;
    const parentIds = rows.map((r) => r.parent_message_id);
    const [parents, channelRows, participants, threadReads] = await Promise.all([
      messages.getMany(appId, parentIds),
      channels.repo.getMany(
        appId,
        rows.map((r) => r.cid),
      ),
      repo.participants(appId, parentIds),
      reads.threadReads(appId, parentIds),
    ]);
    const windowOf = await viewerWindows(
      messages,
      appId,
      rows.map((r) => r.cid),
      actor.userId,
    );
    const replies = new Map<string, MessageRow[]>();
    await Promise.all(
      rows.map(async (row) => {
        const window = windowOf(row.cid);
        const page = await messages.page(
          { appId, parentId: row.parent_message_id, visibleAfter: window.hiddenThrough },
          { limit: options.replyLimit, offset: 0 },
        );
        replies.set(
          row.parent_message_id,
          page.filter((m) => inWindow(window, m)),
        );
      }),
    );
    const allMessages = [...parents.values(), ...[...replies.values()].flat()];
    const assembled = new Map(
      (await assembler.assemble(appId, allMessages, actor.userId)).map((m) => [m.id, m]),
    );
    const userIds = new Set<string>();
    for (const row of rows) userIds.add(row.created_by_id);
    for (const list of participants.values()) for (const p of list) userIds.add(p.user_id);
    for (const list of threadReads.values()) for (const r of list) userIds.add(r.user_id);
    for (const channel of channelRows.values())
      if (channel.created_by_id) userIds.add(channel.created_by_id);
    const usersById = await users.responses(appId, userIds);
    const keys = rows.map((r) => ({ cid: r.cid, parentId: r.parent_message_id }));
    const extras = await Promise.all(enrichers.map((enrich) => enrich(actor, keys)));

    const loaded = {
      parents,
      assembled,
      channelRows,
      participants,
      threadReads,
      replies,
      usersById,
      extras,
      windowOf,
    };
    return rows
      .map((row) => threadResponse(row, loaded, options.participantLimit))
      .filter((thread): thread is JsonObject => thread !== undefined);
  }

  async function loadThread(actor: Actor, parentId: string) {
    const row = await repo.get(actor.appId, parentId);
    if (!row) throw chatError.notFound(`thread ${parentId} does not exist`);
    const access = await channels.access(actor, row.cid);
    const window = viewerWindow({ userId: actor.userId, ...access }, access.channel);
    if (!window.readable)
      throw chatError.notAllowed('reading this thread is not allowed (missing read-channel)');
    // A thread whose parent is hidden from the viewer (truncation, hide_history, clear_history) does not exist.
    const parent = await messages.get(actor.appId, parentId);
    if (!parent || !inWindow(window, parent))
      throw chatError.notFound(`thread ${parentId} does not exist`);
    return { row, access, parent };
  }

  async function watchChannels(actor: Actor, cids: string[]) {
    const connection = deps.hub.ownConnection(actor.connectionId, actor.appId, actor.userId);
    if (!connection) return;
    for (const cid of new Set(cids)) deps.hub.watch(connection, cid);
  }

  return {
    async query(actor, body) {
      if (!actor.userId) throw chatError.input('user_id is required');
      const limit = intOf(body.limit, 10, 100, 'limit');
      const replyLimit = intOf(body.reply_limit, 3, 100, 'reply_limit');
      const participantLimit = intOf(body.participant_limit, 10, 100, 'participant_limit');
      let offset = 0;
      if (typeof body.next === 'string' && body.next) {
        offset = cursorOffset(Number(Buffer.from(body.next, 'base64url').toString('utf8')), 'next');
      }
      const where = compileFilter(body.filter ?? {}, {
        dialect: deps.dialect,
        entity: 'threads',
        fields: {
          channel_cid: { kind: 'column', ref: 'threads.cid', type: 'text' },
          cid: { kind: 'column', ref: 'threads.cid', type: 'text' },
          parent_message_id: { kind: 'column', ref: 'threads.parent_message_id', type: 'text' },
          created_by_user_id: { kind: 'column', ref: 'threads.created_by_id', type: 'text' },
          last_message_at: { kind: 'column', ref: 'threads.last_message_at', type: 'date' },
        },
      });
      // Only threads the user can still read, whose parent is not hidden from them.
      const visible = sql<boolean>`(${readableChannel(actor, sql.ref('threads.app_id'), sql.ref('threads.cid'))} and exists (select 1 from messages pm where pm.app_id = threads.app_id and pm.id = threads.parent_message_id and ${visibleToViewer('pm', actor.userId)}))`;
      const rows = await repo.forUser(
        actor.appId,
        actor.userId,
        sql<boolean>`(${where} and ${visible})`,
        limit + 1,
        offset,
      );
      const page = rows.slice(0, limit);
      const threads = await build(actor, page, { replyLimit, participantLimit });
      if (body.watch === true)
        await watchChannels(
          actor,
          page.map((r) => r.cid),
        );
      const result: { threads: JsonObject[]; next?: string } = { threads };
      if (rows.length > limit)
        result.next = Buffer.from(String(offset + limit)).toString('base64url');
      return result;
    },

    async get(actor, parentId, query) {
      const { row } = await loadThread(actor, parentId);
      const [thread] = await build(actor, [row], {
        replyLimit: intOf(query.reply_limit, 3, 100, 'reply_limit'),
        participantLimit: intOf(query.participant_limit, 100, 100, 'participant_limit'),
      });
      if (!thread) throw chatError.notFound(`thread ${parentId} does not exist`);
      if (query.watch === true || query.watch === 'true') await watchChannels(actor, [row.cid]);
      return { thread };
    },

    async partialUpdate(actor, parentId, body) {
      const { row, access, parent } = await loadThread(actor, parentId);
      const set = body.set ?? {};
      const unset = body.unset ?? [];
      if (!isPlainObject(set)) throw chatError.input('set must be an object');
      if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
        throw chatError.input('unset must be a list of keys');
      if (!actor.isServer && parent.user_id !== actor.userId)
        requirePermission(access.permissions, 'update-thread', 'updating this thread');
      if ('title' in set && set.title !== null && typeof set.title !== 'string')
        throw chatError.input('title must be a string');
      const custom = { ...parseObject(row.custom), ...pickCustom(set, RESERVED, 'thread') };
      for (const key of unset as string[]) delete custom[key];
      const now = deps.clock.now();
      await deps.writes.run((trx) =>
        trx
          .updateTable('threads')
          .set({
            custom: JSON.stringify(custom),
            updated_at: now,
            ...('title' in set ? { title: (set.title as string | null) ?? null } : {}),
            ...((unset as string[]).includes('title') ? { title: null } : {}),
          })
          .where('app_id', '=', actor.appId)
          .where('parent_message_id', '=', parentId)
          .execute(),
      );
      const fresh = (await repo.get(actor.appId, parentId))!;
      const [thread] = await build(actor, [fresh], { replyLimit: 3, participantLimit: 100 });
      const channel = access.channel;
      const event = {
        type: 'thread.updated',
        cid: channel.cid,
        channel_id: channel.id,
        channel_type: channel.type,
        thread: {
          ...thread,
          latest_replies: undefined,
          parent_message: undefined,
          read: undefined,
        },
        created_at: now,
      };
      // The thread is about its parent: members the parent is hidden from hear nothing of it.
      const hidden = await hiddenAudience(deps.db, actor.appId, channel, parent.created_at);
      if (!hidden.everyone) {
        events.toChannel(actor.appId, channel.cid, event, { skipUserIds: hidden.userIds });
        const participantIds = (
          (await repo.participants(actor.appId, [parentId])).get(parentId) ?? []
        ).map((p) => p.user_id);
        events.toUsers(
          actor.appId,
          participantIds.filter((id) => !hidden.userIds.includes(id)),
          event,
          { skipWatchersOf: channel.cid },
        );
      }
      return { thread: thread! };
    },
  };
}
