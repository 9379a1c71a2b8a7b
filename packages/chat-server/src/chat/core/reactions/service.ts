import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { isPlainObject, pickCustom, type JsonObject } from '../json.ts';
import type { MessageAssembler } from '../messages/assembler.ts';
import type { MessagesService } from '../messages/service.ts';
import type { MessageResponse } from '../messages/serialize.ts';
import { cursorOffset } from '../query/bounds.ts';
import { compileFilter } from '../query/filter.ts';
import { toWatchersWhoSee } from '../access/visibility.ts';
import type { UsersService } from '../users/service.ts';
import { channelActivityEvent } from '../wire/events.ts';
import type { ReactionsRepo } from './repo.ts';
import { toReactionResponse, type ReactionResponse } from './serialize.ts';

const RESERVED = new Set([
  'type',
  'score',
  'user',
  'user_id',
  'message_id',
  'created_at',
  'updated_at',
]);
const REACTION_TYPE_PATTERN = /^[\w+-]{1,64}$/;

export interface ReactionsService {
  send(
    actor: Actor,
    messageId: string,
    body: JsonObject,
  ): Promise<{ message: MessageResponse; reaction: ReactionResponse }>;
  remove(
    actor: Actor,
    messageId: string,
    type: string,
    userId: string | undefined,
  ): Promise<{ message: MessageResponse; reaction: ReactionResponse }>;
  list(
    actor: Actor,
    messageId: string,
    limit: number,
    offset: number,
  ): Promise<{ reactions: ReactionResponse[] }>;
  query(
    actor: Actor,
    messageId: string,
    body: JsonObject,
  ): Promise<{ reactions: ReactionResponse[]; next?: string }>;
}

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeCursor(next: unknown): number {
  if (next === undefined || next === null || next === '') return 0;
  try {
    const value = JSON.parse(Buffer.from(String(next), 'base64url').toString('utf8')) as {
      offset?: unknown;
    };
    return cursorOffset(value.offset, 'next');
  } catch {
    throw chatError.input('next is not a valid cursor');
  }
}

/** What the reactions service needs from the rest of the core. */
export interface ReactionsContext {
  deps: ChatDeps;
  repo: ReactionsRepo;
  messages: MessagesService;
  assembler: MessageAssembler;
  users: UsersService;
  events: EventPublisher;
}

type ReactionEventType = 'reaction.new' | 'reaction.updated' | 'reaction.deleted';

export function createReactionsService({
  deps,
  repo,
  messages,
  assembler,
  users,
  events,
}: ReactionsContext): ReactionsService {
  function actingUser(actor: Actor, given: unknown): string {
    if (actor.isServer) {
      const id = typeof given === 'string' && given ? given : actor.userId;
      if (!id) throw chatError.input('user_id is required for server-side reactions');
      return id;
    }
    if (!actor.userId) throw chatError.notAllowed('anonymous users cannot react');
    return actor.userId;
  }

  async function refreshGroups(
    appId: string,
    messageId: string,
    trx: Parameters<Parameters<ChatDeps['writes']['run']>[0]>[0],
  ) {
    const groups = await repo.groups(trx, appId, messageId);
    await trx
      .updateTable('messages')
      .set({ reaction_groups: JSON.stringify(groups) })
      .where('app_id', '=', appId)
      .where('id', '=', messageId)
      .execute();
  }

  async function announce(
    actor: Actor,
    type: ReactionEventType,
    messageId: string,
    reaction: ReactionResponse,
  ) {
    const { row, access } = await messages.accessMessage({ ...actor, isServer: true }, messageId);
    const shared = await assembler.one(actor.appId, row, null);
    const channel = access.channel;
    const event = channelActivityEvent(type, channel, deps.clock.now(), {
      message: shared,
      reaction,
      user: reaction.user,
    });
    await toWatchersWhoSee(deps.db, events, actor.appId, channel, row.created_at, event);
    return assembler.one(actor.appId, row, reaction.user_id);
  }

  return {
    async send(actor, messageId, body) {
      const input = body.reaction;
      if (!isPlainObject(input)) throw chatError.input('reaction is required');
      if (typeof input.type !== 'string' || !REACTION_TYPE_PATTERN.test(input.type))
        throw chatError.input('reaction.type is required');
      const score = input.score === undefined ? 1 : input.score;
      if (typeof score !== 'number' || !Number.isInteger(score) || score < 0 || score > 1000) {
        throw chatError.input('reaction.score must be an integer between 0 and 1000');
      }
      const userId = actingUser(
        actor,
        input.user_id ?? (isPlainObject(input.user) ? input.user.id : undefined),
      );
      const { row, access } = await messages.accessMessage(actor, messageId);
      requirePermission(access.permissions, 'send-reaction', 'reacting to this message');
      if (!access.type.config.reactions)
        throw chatError.featureNotSupported('reactions are disabled for this channel type');
      if (row.deleted_at) throw chatError.input('cannot react to a deleted message');
      const type = input.type;
      const enforceUnique = body.enforce_unique === true;
      const now = deps.clock.now();
      const custom = pickCustom(input, RESERVED, 'reaction');
      const eventType = await deps.writes.run(async (trx) => {
        const existing = await repo.byUser(trx, actor.appId, messageId, userId);
        let replaced = existing.some((r) => r.type === type);
        if (enforceUnique) {
          for (const other of existing.filter((r) => r.type !== type)) {
            await repo.remove(trx, actor.appId, messageId, userId, other.type);
            replaced = true;
          }
        }
        await repo.upsert(trx, {
          app_id: actor.appId,
          message_id: messageId,
          user_id: userId,
          type,
          score,
          custom: JSON.stringify(custom),
          created_at: existing.find((r) => r.type === type)?.created_at ?? now,
          updated_at: now,
        });
        await refreshGroups(actor.appId, messageId, trx);
        return replaced ? ('reaction.updated' as const) : ('reaction.new' as const);
      });
      const saved = (await deps.db
        .selectFrom('reactions')
        .selectAll()
        .where('app_id', '=', actor.appId)
        .where('message_id', '=', messageId)
        .where('user_id', '=', userId)
        .where('type', '=', type)
        .executeTakeFirst())!;
      const reaction = toReactionResponse(saved, await users.response(actor.appId, userId));
      const message = await announce(actor, eventType, row.id, reaction);
      return { message, reaction };
    },

    async remove(actor, messageId, type, requestedUserId) {
      const userId = actingUser(actor, requestedUserId);
      const { access } = await messages.accessMessage(actor, messageId);
      requirePermission(access.permissions, 'send-reaction', 'removing a reaction');
      const existing = await deps.db
        .selectFrom('reactions')
        .selectAll()
        .where('app_id', '=', actor.appId)
        .where('message_id', '=', messageId)
        .where('user_id', '=', userId)
        .where('type', '=', type)
        .executeTakeFirst();
      if (!existing) throw chatError.notFound(`reaction ${type} by ${userId} does not exist`);
      await deps.writes.run(async (trx) => {
        await repo.remove(trx, actor.appId, messageId, userId, type);
        await refreshGroups(actor.appId, messageId, trx);
      });
      const reaction = toReactionResponse(existing, await users.response(actor.appId, userId));
      const message = await announce(actor, 'reaction.deleted', messageId, reaction);
      return { message, reaction };
    },

    async list(actor, messageId, limit, offset) {
      await messages.accessMessage(actor, messageId);
      if (limit > 300) throw chatError.input('limit must be at most 300');
      const rows = await repo.query(actor.appId, messageId, sql<boolean>`1 = 1`, limit, offset);
      const usersById = await users.responses(
        actor.appId,
        rows.map((r) => r.user_id),
      );
      return { reactions: rows.map((r) => toReactionResponse(r, usersById.get(r.user_id))) };
    },

    async query(actor, messageId, body) {
      await messages.accessMessage(actor, messageId);
      const limit = body.limit === undefined ? 25 : body.limit;
      if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 300) {
        throw chatError.input('limit must be between 1 and 300');
      }
      const offset = decodeCursor(body.next);
      const where = compileFilter(body.filter ?? {}, {
        dialect: deps.dialect,
        entity: 'reactions',
        fields: {
          type: { kind: 'column', ref: 'type', type: 'text' },
          user_id: { kind: 'column', ref: 'user_id', type: 'text' },
          created_at: { kind: 'column', ref: 'created_at', type: 'date' },
        },
      });
      const rows = await repo.query(actor.appId, messageId, where, limit + 1, offset);
      const page = rows.slice(0, limit);
      const usersById = await users.responses(
        actor.appId,
        page.map((r) => r.user_id),
      );
      const result: { reactions: ReactionResponse[]; next?: string } = {
        reactions: page.map((r) => toReactionResponse(r, usersById.get(r.user_id))),
      };
      if (rows.length > limit) result.next = encodeCursor(offset + limit);
      return result;
    },
  };
}
