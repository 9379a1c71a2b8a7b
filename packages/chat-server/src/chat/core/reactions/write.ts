import type { Transaction } from 'kysely';
import { reportActivity } from '../extension-points.ts';
import type { Database } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import { toWatchersWhoSee } from '../access/visibility.ts';
import { isPlainObject, pickCustom, type JsonObject } from '../json.ts';
import type { ChannelAccess } from '../channels/service.ts';
import { writesWhenFrozen } from '../messages/frozen.ts';
import type { MessageResponse } from '../messages/serialize.ts';
import { channelActivityEvent } from '../wire/events.ts';
import type { ReactionsContext } from './context.ts';
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

type ReactionEventType = 'reaction.new' | 'reaction.updated' | 'reaction.deleted';

/** A reaction as the client sent it, checked before any lookup. */
interface ReactionInput {
  type: string;
  score: number;
  given: JsonObject;
}

export interface ReactionResult {
  message: MessageResponse;
  reaction: ReactionResponse;
}

/**
 * Stream: reacting in a frozen channel, or taking a reaction back, is refused (403) for users; the server, and those
 * granted `use-frozen-channel`, may.
 */
function refuseFrozen(actor: Actor, access: ChannelAccess): void {
  if (access.channel.frozen === 1 && !writesWhenFrozen(actor, access))
    throw chatError.notAllowed(`channel ${access.channel.cid} is frozen`);
}

function actingUser(actor: Actor, given: unknown): string {
  if (actor.isServer) {
    const id = typeof given === 'string' && given ? given : actor.userId;
    if (!id) throw chatError.input('user_id is required for server-side reactions');
    return id;
  }
  if (!actor.userId) throw chatError.notAllowed('anonymous users cannot react');
  return actor.userId;
}

function readReactionInput(body: JsonObject): ReactionInput {
  const input = body.reaction;
  if (!isPlainObject(input)) throw chatError.input('reaction is required');
  if (typeof input.type !== 'string' || !REACTION_TYPE_PATTERN.test(input.type))
    throw chatError.input('reaction.type is required');
  const score = input.score === undefined ? 1 : input.score;
  if (typeof score !== 'number' || !Number.isInteger(score) || score < 0 || score > 1000) {
    throw chatError.input('reaction.score must be an integer between 0 and 1000');
  }
  return { type: input.type, score, given: input };
}

/** Keeps the message row's denormalised per-type counts in step with its reaction rows. */
async function refreshGroups(
  { repo }: ReactionsContext,
  trx: Transaction<Database>,
  appId: string,
  messageId: string,
): Promise<void> {
  const groups = await repo.groups(trx, appId, messageId);
  await trx
    .updateTable('messages')
    .set({ reaction_groups: JSON.stringify(groups) })
    .where('app_id', '=', appId)
    .where('id', '=', messageId)
    .execute();
}

/** Tells every watcher allowed to see the message, and returns the reactor's own copy of it. */
async function announce(
  { deps, messages, assembler, events }: ReactionsContext,
  actor: Actor,
  type: ReactionEventType,
  messageId: string,
  reaction: ReactionResponse,
): Promise<MessageResponse> {
  const { row, access } = await messages.accessMessage({ ...actor, isServer: true }, messageId);
  const shared = await assembler.one(actor.appId, row, null);
  const channel = access.channel;
  const event = channelActivityEvent(type, channel, deps.clock.now(), {
    message: shared,
    reaction,
    user: reaction.user,
  });
  await toWatchersWhoSee(deps.db, events, actor.appId, channel, row, event);
  return assembler.one(actor.appId, row, reaction.user_id);
}

async function findReaction(
  { deps }: ReactionsContext,
  appId: string,
  messageId: string,
  userId: string,
  type: string,
) {
  return deps.db
    .selectFrom('reactions')
    .selectAll()
    .where('app_id', '=', appId)
    .where('message_id', '=', messageId)
    .where('user_id', '=', userId)
    .where('type', '=', type)
    .executeTakeFirst();
}

/** Stores the reaction (dropping the user's others under enforce_unique) and says whether it replaced one. */
async function storeReaction(
  context: ReactionsContext,
  actor: Actor,
  messageId: string,
  userId: string,
  input: ReactionInput & { enforceUnique: boolean },
): Promise<'reaction.new' | 'reaction.updated'> {
  const { deps, repo } = context;
  const { type, score, enforceUnique } = input;
  const now = deps.clock.now();
  const custom = pickCustom(input.given, RESERVED, 'reaction');
  return deps.writes.run(async (trx) => {
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
    await refreshGroups(context, trx, actor.appId, messageId);
    return replaced ? ('reaction.updated' as const) : ('reaction.new' as const);
  });
}

export async function sendReaction(
  context: ReactionsContext,
  actor: Actor,
  messageId: string,
  body: JsonObject,
): Promise<ReactionResult> {
  const input = readReactionInput(body);
  const given = input.given;
  const userId = actingUser(
    actor,
    given.user_id ?? (isPlainObject(given.user) ? given.user.id : undefined),
  );
  const { row, access } = await context.messages.accessMessage(actor, messageId);
  requirePermission(access.permissions, 'send-reaction', 'reacting to this message');
  refuseFrozen(actor, access);
  if (!access.type.config.reactions)
    throw chatError.featureNotSupported('reactions are disabled for this channel type');
  if (row.deleted_at) throw chatError.input('cannot react to a deleted message');
  for (const check of context.beforeWrite ?? [])
    await check({ actor, access, userId, action: 'send-reaction' });
  const eventType = await storeReaction(context, actor, messageId, userId, {
    ...input,
    enforceUnique: body.enforce_unique === true,
  });
  const saved = (await findReaction(context, actor.appId, messageId, userId, input.type))!;
  const reaction = toReactionResponse(saved, await context.users.response(actor.appId, userId));
  const message = await announce(context, actor, eventType, row.id, reaction);
  if (eventType === 'reaction.new')
    reportActivity(context.activity, {
      kind: 'reaction',
      appId: actor.appId,
      message: row,
      userId,
      type: input.type,
    });
  return { message, reaction };
}

export async function removeReaction(
  context: ReactionsContext,
  actor: Actor,
  messageId: string,
  type: string,
  requestedUserId: string | undefined,
): Promise<ReactionResult> {
  const userId = actingUser(actor, requestedUserId);
  const { access } = await context.messages.accessMessage(actor, messageId);
  requirePermission(access.permissions, 'send-reaction', 'removing a reaction');
  refuseFrozen(actor, access);
  const existing = await findReaction(context, actor.appId, messageId, userId, type);
  if (!existing) throw chatError.notFound(`reaction ${type} by ${userId} does not exist`);
  await context.deps.writes.run(async (trx) => {
    await context.repo.remove(trx, actor.appId, messageId, userId, type);
    await refreshGroups(context, trx, actor.appId, messageId);
  });
  const reaction = toReactionResponse(existing, await context.users.response(actor.appId, userId));
  const message = await announce(context, actor, 'reaction.deleted', messageId, reaction);
  return { message, reaction };
}
