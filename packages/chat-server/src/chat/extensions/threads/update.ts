import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import { privateAudience, hiddenAudience } from '../../core/access/visibility.ts';
import type { ChannelRow } from '../../core/channels/repo.ts';
import type { ChannelAccess } from '../../core/channels/service.ts';
import { isPlainObject, parseObject, pickCustom, type JsonObject } from '../../core/json.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import type { ThreadRow } from '../../core/replies/repo.ts';
import { loadThread, type ThreadsContext } from './context.ts';
import { buildThreads } from './response.ts';

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

/** A checked `set`/`unset` patch: shapes first, then the right to update, then the title's type. */
function readPatch(
  actor: Actor,
  access: ChannelAccess,
  parent: MessageRow,
  body: JsonObject,
): { set: JsonObject; unset: string[] } {
  const set = body.set ?? {};
  const unset = body.unset ?? [];
  if (!isPlainObject(set)) throw chatError.input('set must be an object');
  if (!Array.isArray(unset) || !unset.every((k) => typeof k === 'string'))
    throw chatError.input('unset must be a list of keys');
  if (!actor.isServer && parent.user_id !== actor.userId)
    requirePermission(access.permissions, 'update-thread', 'updating this thread');
  if ('title' in set && set.title !== null && typeof set.title !== 'string')
    throw chatError.input('title must be a string');
  return { set, unset: unset as string[] };
}

async function writePatch(
  ctx: ThreadsContext,
  actor: Actor,
  row: ThreadRow,
  patch: { set: JsonObject; unset: string[] },
  now: string,
): Promise<void> {
  const { set, unset } = patch;
  const custom = { ...parseObject(row.custom), ...pickCustom(set, RESERVED, 'thread') };
  for (const key of unset) delete custom[key];
  await ctx.deps.writes.run((trx) =>
    trx
      .updateTable('threads')
      .set({
        custom: JSON.stringify(custom),
        updated_at: now,
        ...('title' in set ? { title: (set.title as string | null) ?? null } : {}),
        ...(unset.includes('title') ? { title: null } : {}),
      })
      .where('app_id', '=', actor.appId)
      .where('parent_message_id', '=', row.parent_message_id)
      .execute(),
  );
}

/** The thread is about its parent: members the parent is hidden from hear nothing of it. */
async function announceUpdated(
  ctx: ThreadsContext,
  actor: Actor,
  channel: ChannelRow,
  parent: MessageRow,
  event: JsonObject,
): Promise<void> {
  const hidden = await hiddenAudience(ctx.deps.db, actor.appId, channel, parent.created_at);
  if (hidden.everyone) return;
  // A shadowed or pending parent exists for its author alone, a restricted one for its audience, and so does its
  // thread.
  const audience = privateAudience(parent);
  if (audience) {
    for (const userId of audience)
      if (!hidden.userIds.includes(userId))
        ctx.events.toUser(actor.appId, userId, event, { onlyWatchersOf: channel.cid });
    return;
  }
  const participantIds = (
    (await ctx.repo.participants(actor.appId, [parent.id])).get(parent.id) ?? []
  ).map((p) => p.user_id);
  // Watchers and participants not watching, in one pass (publisher.ts `together`).
  ctx.events.together(actor.appId, (out) => {
    out.toChannel(channel.cid, event, { skipUserIds: hidden.userIds });
    out.toUsers(
      participantIds.filter((id) => !hidden.userIds.includes(id)),
      event,
      { skipWatchersOf: channel.cid },
    );
  });
}

export async function partialUpdateThread(
  ctx: ThreadsContext,
  actor: Actor,
  parentId: string,
  body: JsonObject,
): Promise<{ thread: JsonObject }> {
  const { row, access, parent } = await loadThread(ctx, actor, parentId);
  const patch = readPatch(actor, access, parent, body);
  const now = ctx.deps.clock.now();
  await writePatch(ctx, actor, row, patch, now);
  const fresh = (await ctx.repo.get(actor.appId, parentId))!;
  const [thread] = await buildThreads(ctx, actor, [fresh], {
    replyLimit: 3,
    participantLimit: 100,
  });
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
  await announceUpdated(ctx, actor, channel, parent, event);
  return { thread: thread! };
}
