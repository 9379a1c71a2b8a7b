import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { EventPublisher } from '../events/publisher.ts';
import { permissionsFor, type Actor } from './access.ts';
import { BUILTIN_CHANNEL_TYPES } from '../channel-types.ts';
import type { MessageRow, MessagesRepo } from '../messages/repo.ts';

/*
 * Hidden history, as one rule for every path that reads or references messages: a message created at or before a
 * viewer's bound does not exist for that viewer. The bound is the later of the channel's `truncated_at` and the
 * viewer's own `hide_messages_before` (hide_history on add, clear_history on hide); `visibleAfter` in
 * channels/state.ts computes it from rows already loaded, `MessagesRepo.historyBounds` loads it in bulk,
 * `visibleToViewer` applies it inside SQL where a query pages over messages, `referencedMessage` applies it to what a
 * write refers to, and `toWatchersWhoSee` to live events about an existing message.
 */

/** Whether `message` is at or before `bound` (null: nothing is hidden). */
export function isHidden(
  message: Pick<MessageRow, 'created_at'>,
  bound: string | null | undefined,
) {
  return !!bound && message.created_at <= bound;
}

/**
 * SQL: the message row aliased `alias` is visible to `viewer` (a user id, or a SQL expression naming one); with
 * no viewer only truncation applies. Correlated lookups by primary key, so it costs two index probes per row.
 */
export function visibleToViewer(
  alias: string,
  viewer: string | RawBuilder<unknown> | null,
): RawBuilder<boolean> {
  const column = (name: string) => sql.ref(`${alias}.${name}`);
  const notTruncated = sql<boolean>`not exists (select 1 from channels hc where hc.app_id = ${column('app_id')} and hc.cid = ${column('cid')} and hc.truncated_at is not null and ${column('created_at')} <= hc.truncated_at)`;
  if (viewer === null) return notTruncated;
  return sql<boolean>`(${notTruncated} and not exists (select 1 from members hm where hm.app_id = ${column('app_id')} and hm.cid = ${column('cid')} and hm.user_id = ${viewer} and hm.hide_messages_before is not null and ${column('created_at')} <= hm.hide_messages_before))`;
}

/**
 * SQL: the channel `cid` (a SQL expression, in app `appId`) is one the actor may read: not deleted, and either of a
 * type anyone in the actor's role may read or one the actor is an unbanned member of (channel-types.ts grants).
 */
export function readableChannel(
  actor: Actor,
  appId: RawBuilder<unknown>,
  cid: RawBuilder<unknown>,
): RawBuilder<boolean> {
  if (actor.isServer) return sql<boolean>`1 = 1`;
  const publicTypes = Object.values(BUILTIN_CHANNEL_TYPES)
    .filter((type) => permissionsFor(type, actor, null).has('read-channel'))
    .map((type) => type.name);
  const member = actor.userId
    ? sql<boolean>`exists (select 1 from members rm where rm.app_id = rc.app_id and rm.cid = rc.cid and rm.user_id = ${actor.userId} and rm.banned = 0)`
    : sql<boolean>`1 = 0`;
  const open =
    publicTypes.length > 0 ? sql<boolean>`rc.type in (${sql.join(publicTypes)})` : sql`1 = 0`;
  return sql<boolean>`exists (select 1 from channels rc where rc.app_id = ${appId} and rc.cid = ${cid} and rc.deleted_at is null and (${open} or ${member}))`;
}

/**
 * The message `id` that a write refers to (a quote, a parent): it must exist in `cid`, be visible under `bound` and,
 * unless `allowDeleted`, not be deleted. Anything else is refused alike, so a refusal tells nothing about messages
 * the writer cannot see.
 */
export async function referencedMessage(
  repo: MessagesRepo,
  appId: string,
  id: string,
  target: { cid: string; bound: string | null; what: string; allowDeleted?: boolean },
): Promise<MessageRow> {
  const row = await repo.get(appId, id);
  if (
    !row ||
    row.cid !== target.cid ||
    isHidden(row, target.bound) ||
    (!target.allowDeleted && row.deleted_at)
  )
    throw chatError.input(`${target.what} ${id} does not exist in this channel`);
  return row;
}

/** Who must not receive live events about a message: nobody, some members, or every watcher. */
export type HiddenAudience = { everyone: true } | { everyone: false; userIds: string[] };

/**
 * The audience a message created at `createdAt` is hidden from: every watcher when the channel was truncated after
 * it, else the members whose own bound hides it (skipped when the event goes to the channel).
 */
export async function hiddenAudience(
  db: Db,
  appId: string,
  channel: { cid: string; truncated_at?: string | null },
  createdAt: string,
): Promise<HiddenAudience> {
  const truncatedAt =
    channel.truncated_at !== undefined
      ? channel.truncated_at
      : ((
          await db
            .selectFrom('channels')
            .select('truncated_at')
            .where('app_id', '=', appId)
            .where('cid', '=', channel.cid)
            .executeTakeFirst()
        )?.truncated_at ?? null);
  if (isHidden({ created_at: createdAt }, truncatedAt)) return { everyone: true };
  const members = await db
    .selectFrom('members')
    .select('user_id')
    .where('app_id', '=', appId)
    .where('cid', '=', channel.cid)
    .where('hide_messages_before', '>=', createdAt)
    .execute();
  return { everyone: false, userIds: members.map((m) => m.user_id) };
}

/**
 * Sends an event about an existing message (created at `createdAt`) to the channel's watchers, except those the
 * message is hidden from (and `skipUserIds`).
 */
export async function toWatchersWhoSee(
  db: Db,
  events: EventPublisher,
  appId: string,
  channel: { cid: string; truncated_at?: string | null },
  createdAt: string,
  event: object,
  skipUserIds: string[] = [],
): Promise<void> {
  const hidden = await hiddenAudience(db, appId, channel, createdAt);
  if (hidden.everyone) return;
  events.toChannel(appId, channel.cid, event, { skipUserIds: [...skipUserIds, ...hidden.userIds] });
}
