import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelResponse } from '../channels/serialize.ts';
import { isPlainObject } from '../json.ts';
import { boundedInt, PAGE_BOUNDS } from '../query/bounds.ts';
import { compileFilter } from '../query/filter.ts';
import { compileSort, parseSort } from '../query/sort.ts';
import type { UserResponse } from '../users/serialize.ts';
import type { BansContext } from './service.ts';
import { APP_WIDE, type BanRow, type BansRepo } from './repo.ts';

/** One entry of `queryBannedUsers`, as stream-chat's BannedUsersResponse reads it. */
export interface BanResponse {
  user: UserResponse;
  banned_by?: UserResponse;
  channel?: ChannelResponse;
  expires?: string;
  reason?: string;
  shadow: boolean;
  ip_ban?: boolean;
  created_at: string;
}

export interface BannedUsersResponse {
  bans: BanResponse[];
}

const STAFF = new Set(['admin', 'moderator']);
const MAX_LIMIT = 100;
const NEWEST_FIRST = [{ field: 'created_at', direction: -1 as const }];

/**
 * `GET /query_banned_users`: the server and the app's moderators and admins see every ban; anyone else only the
 * bans of one channel (`channel_cid`) where they hold `ban-channel-members`.
 */
export function createBanQuery(context: BansContext & { repo: BansRepo }) {
  const { deps } = context;
  return async (actor: Actor, payload: Record<string, unknown>): Promise<BannedUsersResponse> => {
    const filter = isPlainObject(payload.filter_conditions) ? payload.filter_conditions : {};
    await authorizeQuery(context, actor, filter);
    const limit = boundedInt(payload.limit, 'limit', { min: 0, max: MAX_LIMIT, fallback: 25 });
    const offset = boundedInt(payload.offset, 'offset', {
      min: 0,
      max: PAGE_BOUNDS.maxOffset,
      fallback: 0,
    });
    const where = compileFilter(filter, {
      dialect: deps.dialect,
      entity: 'banned users',
      fields: {
        user_id: { kind: 'column', ref: 'user_id', type: 'text' },
        channel_cid: { kind: 'column', ref: 'cid', type: 'text' },
        banned_by_id: { kind: 'column', ref: 'banned_by_id', type: 'text', nullable: true },
        reason: { kind: 'column', ref: 'reason', type: 'text', nullable: true },
        created_at: { kind: 'column', ref: 'created_at', type: 'date' },
        expires: { kind: 'column', ref: 'expires', type: 'date', nullable: true },
        shadow: { kind: 'column', ref: 'shadow', type: 'boolean' },
      },
    });
    const sortItems = parseSort(payload.sort);
    const order = compileSort(sortItems.length > 0 ? sortItems : NEWEST_FIRST, {
      dialect: deps.dialect,
      entity: 'banned users',
      fields: { created_at: sql`created_at` },
    });
    let query = context.repo
      .tables()
      .selectFrom('bans')
      .selectAll()
      .where('app_id', '=', actor.appId)
      .where(where);
    if (payload.exclude_expired_bans === true) {
      const now = deps.clock.now();
      query = query.where((eb) => eb.or([eb('expires', 'is', null), eb('expires', '>', now)]));
    }
    for (const part of order) query = query.orderBy(part);
    const rows = await query
      .orderBy('user_id')
      .orderBy('cid')
      .limit(limit)
      .offset(offset)
      .execute();
    return { bans: await toResponses(context, actor.appId, rows) };
  };
}

/** The single channel a filter names with `channel_cid` (a string or `{$eq}`), if it names exactly one. */
function singleChannel(filter: Record<string, unknown>): string | undefined {
  const value = filter.channel_cid;
  if (typeof value === 'string') return value;
  if (isPlainObject(value) && typeof value.$eq === 'string' && Object.keys(value).length === 1)
    return value.$eq;
  return undefined;
}

async function authorizeQuery(
  { channels }: BansContext,
  actor: Actor,
  filter: Record<string, unknown>,
): Promise<void> {
  if (actor.isServer || STAFF.has(actor.role)) return;
  const cid = singleChannel(filter);
  if (!cid || cid === APP_WIDE)
    throw chatError.notAllowed(
      'only moderators and admins can query every ban; filter by one channel_cid you moderate',
    );
  const access = await channels.access(actor, cid);
  if (!access.permissions.has('ban-channel-members'))
    throw chatError.notAllowed(
      `querying the bans of ${cid} is not allowed (missing ban-channel-members)`,
    );
}

async function toResponses(
  { users, channels }: BansContext,
  appId: string,
  rows: BanRow[],
): Promise<BanResponse[]> {
  const ids = rows.flatMap((r) => (r.banned_by_id ? [r.user_id, r.banned_by_id] : [r.user_id]));
  const usersById = await users.responses(appId, ids);
  const channelsByCid = new Map<string, ChannelResponse>();
  for (const cid of new Set(rows.map((r) => r.cid).filter((cid) => cid !== APP_WIDE))) {
    const row = await channels.repo.get(appId, cid);
    if (row) channelsByCid.set(cid, await channels.eventChannel(row));
  }
  return rows.map((row) => ({
    user: usersById.get(row.user_id)!,
    ...(row.banned_by_id ? { banned_by: usersById.get(row.banned_by_id)! } : {}),
    ...(channelsByCid.has(row.cid) ? { channel: channelsByCid.get(row.cid)! } : {}),
    ...(row.expires ? { expires: row.expires } : {}),
    ...(row.reason ? { reason: row.reason } : {}),
    shadow: row.shadow === 1,
    ...(row.ip ? { ip_ban: true } : {}),
    created_at: row.created_at,
  }));
}
