import type { Actor } from '../access/access.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { UserHardDeleted } from '../extension-points.ts';
import type { JsonObject } from '../json.ts';
import type { ChannelsService } from '../channels/service.ts';
import type { MessagesService } from '../messages/service.ts';
import type { ReactionsService } from '../reactions/service.ts';
import type { UsersService } from '../users/service.ts';
import { userEvent } from '../wire/events.ts';
import { chatError } from '../../../errors.ts';
import { itemOutcome } from './delete-channels.ts';
import type { TaskRunner } from './runner.ts';

/** Stream's limit on one POST /users/delete. */
export const MAX_USERS_PER_DELETE = 100;

/** client.deleteUsers' options (Stream's DeleteUserOptions). */
export interface DeleteUserModes {
  user?: 'soft' | 'pruning' | 'hard';
  messages?: 'soft' | 'pruning' | 'hard';
  conversations?: 'soft' | 'hard';
  new_channel_owner_id?: string;
}

export interface DeleteUsersContext {
  deps: ChatDeps;
  events: EventPublisher;
  users: UsersService;
  channels: ChannelsService;
  messages: MessagesService;
  reactions: ReactionsService;
  /** Extensions told of each hard-deleted user (the `userHardDeleted` point). */
  userHardDeleted?: readonly UserHardDeleted[];
}

const PAGE = 200;

/** Stream: a hard-deleted user takes their messages and conversations with them, so only `hard` goes with it. */
export function checkModes(modes: DeleteUserModes): DeleteUserModes {
  if (modes.user === 'hard') {
    if (modes.messages !== undefined && modes.messages !== 'hard')
      throw chatError.input('messages must be "hard" when user is "hard"');
    if (modes.conversations !== undefined && modes.conversations !== 'hard')
      throw chatError.input('conversations must be "hard" when user is "hard"');
    return { ...modes, messages: 'hard' };
  }
  return modes;
}

/** Every message the user wrote, one page of ids at a time (by id, so deleting rows does not shift the pages). */
async function eachMessageId(
  ctx: DeleteUsersContext,
  appId: string,
  userId: string,
  visit: (id: string) => Promise<void>,
): Promise<void> {
  let after = '';
  for (;;) {
    const rows = await ctx.deps.db
      .selectFrom('messages')
      .select('id')
      .where('app_id', '=', appId)
      .where('user_id', '=', userId)
      .where('id', '>', after)
      .orderBy('id')
      .limit(PAGE)
      .execute();
    for (const row of rows) await visit(row.id);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]!.id;
  }
}

/** Soft, pruning (soft plus the content and reactions gone) or hard, each message as a server-side delete would. */
async function deleteMessages(
  ctx: DeleteUsersContext,
  server: Actor,
  userId: string,
  mode: NonNullable<DeleteUserModes['messages']>,
): Promise<void> {
  await eachMessageId(ctx, server.appId, userId, async (id) => {
    // A message of a channel deleted meanwhile is gone with it: nothing left to do for it.
    await ctx.messages
      .remove(server, id, { hard: mode === 'hard', deleteForMe: false })
      .catch(() => undefined);
  });
  if (mode !== 'pruning') return;
  await ctx.deps.writes.run(async (trx) => {
    const ids = trx
      .selectFrom('messages')
      .select('id')
      .where('app_id', '=', server.appId)
      .where('user_id', '=', userId);
    await trx
      .deleteFrom('reactions')
      .where('app_id', '=', server.appId)
      .where('message_id', 'in', ids)
      .execute();
    await trx
      .updateTable('messages')
      .set({ text: '', html: '', attachments: '[]', custom: '{}', reaction_groups: '{}' })
      .where('app_id', '=', server.appId)
      .where('user_id', '=', userId)
      .execute();
  });
}

/** The user's 1:1 and group conversations: the distinct channels (created from a member list) they belong to. */
async function deleteConversations(
  ctx: DeleteUsersContext,
  server: Actor,
  userId: string,
  mode: 'soft' | 'hard',
): Promise<void> {
  const rows = await ctx.deps.db
    .selectFrom('channels as c')
    .innerJoin('members as m', (join) =>
      join.onRef('m.app_id', '=', 'c.app_id').onRef('m.cid', '=', 'c.cid'),
    )
    .select(['c.type', 'c.id'])
    .where('c.app_id', '=', server.appId)
    .where('m.user_id', '=', userId)
    .where('c.distinct_key', 'is not', null)
    .where('c.deleted_at', 'is', null)
    .execute();
  for (const row of rows)
    await ctx.channels.remove(server, row.type, row.id, mode === 'hard').catch(() => undefined);
}

/** Their reactions on other people's messages, each removed as the server would (counts and events included). */
async function removeReactionsBy(
  ctx: DeleteUsersContext,
  server: Actor,
  userId: string,
): Promise<void> {
  const rows = await ctx.deps.db
    .selectFrom('reactions')
    .select(['message_id', 'type'])
    .where('app_id', '=', server.appId)
    .where('user_id', '=', userId)
    .execute();
  for (const row of rows)
    await ctx.reactions.remove(server, row.message_id, row.type, userId).catch(() => undefined);
}

/**
 * Hard: their reactions gone, out of every channel (member.removed as usual), the channels they created handed on,
 * the row gone.
 */
async function removeUserRow(
  ctx: DeleteUsersContext,
  server: Actor,
  userId: string,
  newOwner: string | undefined,
): Promise<void> {
  await removeReactionsBy(ctx, server, userId);
  for (const cid of await ctx.users.repo.memberCids(server.appId, userId, 10_000)) {
    const at = cid.indexOf(':');
    await ctx.channels
      .update(server, cid.slice(0, at), cid.slice(at + 1), { remove_members: [userId] })
      .catch(() => undefined);
  }
  await ctx.deps.writes.run(async (trx) => {
    await trx
      .updateTable('channels')
      .set({ created_by_id: newOwner ?? null })
      .where('app_id', '=', server.appId)
      .where('created_by_id', '=', userId)
      .execute();
    await trx
      .deleteFrom('reads')
      .where('app_id', '=', server.appId)
      .where('user_id', '=', userId)
      .execute();
    await trx
      .deleteFrom('users')
      .where('app_id', '=', server.appId)
      .where('id', '=', userId)
      .execute();
  });
}

/**
 * Deletes one user in the given modes and sends `user.deleted` to them, their presence followers and the watchers
 * of their channels. Throws code 16 for an unknown user. Returns the deleted user as the event carried it.
 */
export async function deleteOneUser(
  ctx: DeleteUsersContext,
  actor: Actor,
  userId: string,
  modes: DeleteUserModes,
): Promise<JsonObject> {
  const server: Actor = { ...actor, isServer: true };
  const appId = actor.appId;
  const row = await ctx.users.repo.get(appId, userId);
  if (!row) throw chatError.notFound(`user ${userId} does not exist`);
  const cids = await ctx.users.repo.memberCids(appId, userId, 1000);
  if (modes.messages) await deleteMessages(ctx, server, userId, modes.messages);
  if (modes.conversations) await deleteConversations(ctx, server, userId, modes.conversations);
  const now = ctx.deps.clock.now();
  const user = modes.user ?? 'soft';
  if (user === 'hard') {
    await removeUserRow(ctx, server, userId, modes.new_channel_owner_id);
    for (const listener of ctx.userHardDeleted ?? []) await listener({ appId, userId });
  } else
    await ctx.users.repo.update(appId, userId, {
      deleted_at: now,
      updated_at: now,
      ...(user === 'pruning' ? { name: null, name_search: null, image: null, custom: '{}' } : {}),
    });
  const fresh = await ctx.users.repo.get(appId, userId);
  const response = {
    ...ctx.users.toResponse(fresh ?? row),
    deleted_at: now,
  } as JsonObject;
  const event = userEvent('user.deleted', now, {
    user: response,
    hard_delete: user === 'hard',
    mark_messages_deleted: modes.messages !== undefined,
    delete_conversation_channels: modes.conversations !== undefined,
  });
  ctx.events.toUser(appId, userId, event);
  ctx.events.toPresenceFollowers(appId, userId, event);
  for (const cid of cids)
    ctx.events.toChannel(appId, cid, { ...event, cid }, { skipUserIds: [userId] });
  return response;
}

/** client.deleteUsers: each user deleted in the background; one failing does not stop the others. */
export async function startDeleteUsers(
  runner: TaskRunner,
  ctx: DeleteUsersContext,
  actor: Actor,
  userIds: string[],
  modes: DeleteUserModes,
): Promise<string> {
  const unique = [...new Set(userIds)];
  const checked = checkModes(modes);
  const heir = checked.new_channel_owner_id;
  if (heir !== undefined && !(await ctx.users.repo.get(actor.appId, heir)))
    throw chatError.input(`new_channel_owner_id: user ${heir} does not exist`);
  return runner.start(actor.appId, 'delete-users', { user_ids: unique, ...checked }, async () => {
    const result: JsonObject = {};
    for (const userId of unique) {
      try {
        await deleteOneUser(ctx, actor, userId, checked);
        result[userId] = itemOutcome();
      } catch (error) {
        result[userId] = itemOutcome(error);
      }
    }
    return result;
  });
}
