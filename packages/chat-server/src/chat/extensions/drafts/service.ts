import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import {
  assertChannelId,
  assertChannelType,
  type ChannelsService,
} from '../../core/channels/service.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import { parseObject, type JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageRow, MessagesRepo } from '../../core/messages/repo.ts';
import { inWindow, referencedMessage, viewerWindows } from '../../core/access/visibility.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import { decodeOffsetCursor, encodeOffsetCursor, pageLimit } from '../../core/query/cursor.ts';
import { compileFilter } from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';
import { readDraft } from './input.ts';
import type { DraftRow, DraftsRepo } from './repo.ts';
import { toDraftResponse, type DraftResponse } from './serialize.ts';

export interface DraftsService {
  upsert(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ draft: DraftResponse }>;
  get(
    actor: Actor,
    typeName: string,
    id: string,
    parentId: string | undefined,
    userId: string | undefined,
  ): Promise<{ draft: DraftResponse }>;
  remove(
    actor: Actor,
    typeName: string,
    id: string,
    parentId: string | undefined,
    userId: string | undefined,
  ): Promise<Record<string, never>>;
  query(
    actor: Actor,
    body: JsonObject,
  ): Promise<{ drafts: DraftResponse[]; next?: string; prev?: string }>;
  /** The viewer's channel drafts, for channel responses (`draft`). */
  channelDrafts(actor: Actor, cids: readonly string[]): Promise<Map<string, DraftResponse>>;
  /** The viewer's thread drafts, by parent message id, for thread responses (`draft`). */
  threadDrafts(
    actor: Actor,
    threads: readonly { cid: string; parentId: string }[],
  ): Promise<Map<string, DraftResponse>>;
}

/** What the drafts service is built from. */
export interface DraftsContext {
  deps: ChatDeps;
  repo: DraftsRepo;
  messages: MessagesRepo;
  channels: ChannelsService;
  assembler: MessageAssembler;
  events: EventPublisher;
}

export function createDraftsService(context: DraftsContext): DraftsService {
  const { deps, repo, messages, channels, assembler, events } = context;
  function owner(actor: Actor, given: unknown): string {
    if (actor.isServer) {
      const id = typeof given === 'string' && given ? given : actor.userId;
      if (!id) throw chatError.input('user_id is required for server-side calls');
      return id;
    }
    if (!actor.userId) throw chatError.notAllowed('anonymous users have no drafts');
    return actor.userId;
  }

  async function channelAccess(actor: Actor, typeName: string, id: string) {
    assertChannelType(typeName);
    assertChannelId(id);
    const access = await channels.access(actor, `${typeName}:${id}`);
    requirePermission(access.permissions, 'read-channel', `reading channel ${access.channel.cid}`);
    return access;
  }

  /**
   * Responses for many drafts, with their parent and quoted messages assembled in one batch: only those still in
   * the draft's channel and visible to its owner (a truncation after the draft was saved hides them).
   */
  async function responses(appId: string, userId: string, rows: DraftRow[]) {
    const related = new Set<string>();
    for (const row of rows) {
      if (row.parent_id) related.add(row.parent_id);
      const quoted = parseObject(row.message).quoted_message_id;
      if (typeof quoted === 'string') related.add(quoted);
    }
    const byId = new Map<string, MessageResponse>();
    const found =
      related.size > 0
        ? await messages.getMany(appId, [...related])
        : new Map<string, MessageRow>();
    if (found.size > 0) {
      const assembled = await assembler.assemble(appId, [...found.values()], userId);
      for (const message of assembled) byId.set(message.id, message);
    }
    const windowOf = await viewerWindows(
      messages,
      appId,
      found.size > 0 ? rows.map((r) => r.cid) : [],
      userId,
    );
    const visible = (row: DraftRow, id: unknown) => {
      const message = typeof id === 'string' && id ? found.get(id) : undefined;
      if (!message || message.cid !== row.cid || !inWindow(windowOf(row.cid), message))
        return undefined;
      return byId.get(message.id);
    };
    return rows.map((row) =>
      toDraftResponse(row, {
        parent: visible(row, row.parent_id),
        quoted: visible(row, parseObject(row.message).quoted_message_id),
      }),
    );
  }

  function announce(actor: Actor, userId: string, type: string, draft: DraftResponse) {
    const at = draft.channel_cid.indexOf(':');
    events.toUser(actor.appId, userId, {
      type,
      cid: draft.channel_cid,
      channel_type: draft.channel_cid.slice(0, at),
      channel_id: draft.channel_cid.slice(at + 1),
      draft,
      created_at: deps.clock.now(),
    });
  }

  return {
    async upsert(actor, typeName, id, body) {
      const access = await channelAccess(actor, typeName, id);
      const userId = owner(actor, body.user_id);
      const maxText = Math.min(
        access.type.config.max_message_length,
        deps.config.limits.maxMessageLength,
      );
      const input = readDraft(body.message, maxText);
      const cid = access.channel.cid;
      requirePermission(
        access.permissions,
        input.parentId ? 'send-reply' : 'send-message',
        `drafting a message in ${cid}`,
      );
      // The same rules as sending: what the owner cannot see in this channel, the draft cannot refer to.
      const bound =
        input.parentId || input.quotedId
          ? (await viewerWindows(messages, actor.appId, [cid], userId))(cid).hiddenThrough
          : null;
      for (const [messageId, what] of [
        [input.parentId || null, 'parent message'],
        [input.quotedId, 'quoted message'],
      ] as const) {
        if (!messageId) continue;
        const row = await referencedMessage(messages, actor.appId, messageId, { cid, bound, what });
        if (what === 'parent message' && row.parent_id)
          throw chatError.nesting('a reply cannot be the parent of another reply');
      }
      if (input.pollId) {
        const poll = await deps.db
          .selectFrom('polls')
          .select(['created_by_id', 'message_id'])
          .where('app_id', '=', actor.appId)
          .where('id', '=', input.pollId)
          .executeTakeFirst();
        if (!poll || poll.created_by_id !== userId)
          throw chatError.input(`poll with id ${input.pollId} does not exist`);
        // A poll goes on one message only; one already sent cannot be drafted again.
        if (poll.message_id && (await messages.get(actor.appId, poll.message_id)))
          throw chatError.input(`poll ${input.pollId} is already attached to a message`);
      }
      const now = deps.clock.now();
      await deps.writes.run((trx) =>
        repo.upsert(trx, {
          app_id: actor.appId,
          user_id: userId,
          cid,
          parent_id: input.parentId,
          message: JSON.stringify(input.message),
          created_at: now,
          updated_at: now,
        }),
      );
      const row = await repo.get({ appId: actor.appId, userId, cid, parentId: input.parentId });
      const [draft] = await responses(actor.appId, userId, [row!]);
      announce(actor, userId, 'draft.updated', draft!);
      return { draft: draft! };
    },

    async get(actor, typeName, id, parentId, givenUser) {
      const access = await channelAccess(actor, typeName, id);
      const userId = owner(actor, givenUser);
      const row = await repo.get({
        appId: actor.appId,
        userId,
        cid: access.channel.cid,
        parentId: parentId ?? '',
      });
      if (!row) throw chatError.notFound('draft does not exist');
      const [draft] = await responses(actor.appId, userId, [row]);
      return { draft: draft! };
    },

    async remove(actor, typeName, id, parentId, givenUser) {
      const access = await channelAccess(actor, typeName, id);
      const userId = owner(actor, givenUser);
      const key = { appId: actor.appId, userId, cid: access.channel.cid, parentId: parentId ?? '' };
      const row = await repo.get(key);
      if (!row) throw chatError.notFound('draft does not exist');
      await deps.writes.run((trx) => repo.remove(trx, key));
      const [draft] = await responses(actor.appId, userId, [row]);
      announce(actor, userId, 'draft.deleted', draft!);
      return {};
    },

    async query(actor, body) {
      const userId = owner(actor, body.user_id);
      const limit = pageLimit(body.limit, 25, 100);
      const offset = body.prev
        ? Math.max(0, decodeOffsetCursor(body.prev, 'prev') - limit)
        : decodeOffsetCursor(body.next, 'next');
      const where = compileFilter(body.filter ?? {}, {
        dialect: deps.dialect,
        entity: 'drafts',
        fields: {
          channel_cid: { kind: 'column', ref: 'cid', type: 'text' },
          created_at: { kind: 'column', ref: 'updated_at', type: 'date' },
          parent_id: {
            kind: 'custom',
            build: (op, value) => {
              if (op === '$exists')
                return value ? sql<boolean>`parent_id <> ''` : sql<boolean>`parent_id = ''`;
              if (op === '$eq' && typeof value === 'string')
                return sql<boolean>`parent_id = ${value}`;
              if (op === '$in' && Array.isArray(value) && value.every((v) => typeof v === 'string'))
                return value.length
                  ? sql<boolean>`parent_id in (${sql.join(value as string[])})`
                  : sql<boolean>`1 = 0`;
              throw chatError.input(`operator ${op} is not supported for parent_id`);
            },
          },
        },
      });
      const sort = parseSort(body.sort);
      const orderBy = compileSort(sort.length ? sort : [{ field: 'created_at', direction: -1 }], {
        dialect: deps.dialect,
        entity: 'drafts',
        fields: { created_at: sql`updated_at` },
      });
      const rows = await repo.query(actor.appId, userId, where, orderBy, limit + 1, offset);
      const page = rows.slice(0, limit);
      const result: { drafts: DraftResponse[]; next?: string; prev?: string } = {
        drafts: await responses(actor.appId, userId, page),
      };
      if (rows.length > limit) result.next = encodeOffsetCursor(offset + limit);
      if (offset > 0) result.prev = encodeOffsetCursor(offset);
      return result;
    },

    async channelDrafts(actor, cids) {
      const result = new Map<string, DraftResponse>();
      if (!actor.userId || cids.length === 0) return result;
      const rows = await repo.channelDrafts(actor.appId, actor.userId, cids);
      if (rows.length === 0) return result;
      const drafts = await responses(actor.appId, actor.userId, rows);
      for (const draft of drafts) result.set(draft.channel_cid, draft);
      return result;
    },

    async threadDrafts(actor, threads) {
      const result = new Map<string, DraftResponse>();
      if (!actor.userId || threads.length === 0) return result;
      const rows = await repo.threadDrafts(
        actor.appId,
        actor.userId,
        threads.map((t) => t.parentId),
      );
      const wanted = new Set(threads.map((t) => `${t.cid}\n${t.parentId}`));
      const mine = rows.filter((r) => wanted.has(`${r.cid}\n${r.parent_id}`));
      if (mine.length === 0) return result;
      for (const draft of await responses(actor.appId, actor.userId, mine))
        result.set(draft.parent_id!, draft);
      return result;
    },
  };
}
