import { sql, type RawBuilder } from 'kysely';
import { ChatError, chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { CHANNEL_ID_PATTERN, CHANNEL_TYPE_PATTERN } from '../../core/channels/ids.ts';
import { compileChannelFilter } from '../../core/channels/query.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { JsonObject } from '../../core/json.ts';
import type { SegmentRow } from './repo.ts';

/*
 * Channel segments select channels with queryChannels' own filter engine, run as the server (no viewer, so no
 * per-user membership state): `channels c LEFT JOIN members m` with m always empty, as compileChannelFilter expects.
 */

/**
 * A cid is `type:id`; user ids cannot hold a colon (USER_ID_PATTERN, and a campaign's `user_ids` are checked for it in
 * schemas.ts), so a delivery row's target tells a channel from a user.
 */
export function isChannelTarget(target: string): boolean {
  return target.includes(':');
}

function isCid(target: string): boolean {
  const at = target.indexOf(':');
  return (
    at > 0 &&
    CHANNEL_TYPE_PATTERN.test(target.slice(0, at)) &&
    CHANNEL_ID_PATTERN.test(target.slice(at + 1))
  );
}

function serverActor(appId: string): Actor {
  return { appId, userId: null, role: 'admin', isServer: true, connectionId: null };
}

/** Compiles a channel segment's filter now, so a bad one is the caller's code 4 naming the field. */
export function checkChannelFilter(deps: ChatDeps, appId: string, filter: JsonObject): void {
  try {
    compileChannelFilter(deps.dialect, serverActor(appId), filter, deps.channelTypes);
  } catch (error) {
    if (error instanceof ChatError && error.code === 4)
      throw chatError.input(`filter: ${error.message}`);
    throw error;
  }
}

/** The explicit targets of a channel segment must be cids, as Stream's channel targets are. */
export function checkChannelTargets(targetIds: string[]): void {
  const bad = targetIds.find((id) => !isCid(id));
  if (bad !== undefined) throw chatError.input(`target_ids: ${bad} is not a channel cid (type:id)`);
}

function filterOf(segment: SegmentRow): JsonObject {
  return segment.filter ? (JSON.parse(segment.filter) as JsonObject) : {};
}

/**
 * The condition on `c` selecting the segment's live channels: the filter's matches, the listed cids and, with
 * `all_sender_channels`, the channels `senderId` is a member of (known only once a campaign names its sender).
 */
function channelsWhere(
  deps: ChatDeps,
  segment: SegmentRow,
  senderId: string | null,
): RawBuilder<boolean> {
  const filter = filterOf(segment);
  const matched =
    Object.keys(filter).length > 0
      ? compileChannelFilter(deps.dialect, serverActor(segment.app_id), filter, deps.channelTypes)
      : sql<boolean>`1 = 0`;
  const listed = sql<boolean>`c.cid in (select target_id from segment_targets where app_id = ${segment.app_id} and segment_id = ${segment.id})`;
  const senders =
    segment.all_sender_channels === 1 && senderId !== null
      ? sql<boolean>`exists (select 1 from members sm where sm.app_id = c.app_id and sm.cid = c.cid and sm.user_id = ${senderId})`
      : sql<boolean>`1 = 0`;
  return sql<boolean>`(${matched}) or ${listed} or ${senders}`;
}

function fromChannels(deps: ChatDeps, segment: SegmentRow, senderId: string | null) {
  return sql`from channels c left join members m on m.app_id = c.app_id and m.cid = c.cid and m.user_id = ''
    where c.app_id = ${segment.app_id} and c.deleted_at is null and (${channelsWhere(deps, segment, senderId)})`;
}

/** How many existing channels the segment reaches now. */
export async function countChannels(deps: ChatDeps, segment: SegmentRow): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`select count(*) as n ${fromChannels(
    deps,
    segment,
    null,
  )}`.execute(deps.db);
  return Number(rows[0]?.n ?? 0);
}

/** The cids a channel segment reaches for a campaign sent by `senderId`, in cid order, a page after `after`. */
export async function channelCids(
  deps: ChatDeps,
  segment: SegmentRow,
  senderId: string,
  after: string,
  limit: number,
): Promise<string[]> {
  const { rows } = await sql<{ cid: string }>`select c.cid ${fromChannels(deps, segment, senderId)}
    and c.cid > ${after} order by c.cid limit ${limit}`.execute(deps.db);
  return rows.map((r) => r.cid);
}
