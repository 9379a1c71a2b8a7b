import { isoFromMicros } from '../../../db/clock.ts';
import type { Db } from '../../../db/schema.ts';
import { PATIENT } from '../../../db/write-queue.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelsService } from '../channels/service.ts';
import type { ChatDeps } from '../deps.ts';
import type { EventPublisher } from '../events/publisher.ts';
import type { UsersService } from '../users/service.ts';
import { channelEvent, userEvent } from '../wire/events.ts';
import type { BanPort, BanRequest } from './port.ts';
import { createBanQuery, type BannedUsersResponse } from './query.ts';
import { APP_WIDE, createBansRepo, type BanRow, type BansRepo } from './repo.ts';
import { authorizeBan, bannedByOf, checkBanValues, type BanScope } from './rules.ts';

/** The bans module: the port the rest of the server bans through, plus what its routes and the gateway need. */
export interface BansService extends BanPort {
  queryBannedUsers(actor: Actor, payload: Record<string, unknown>): Promise<BannedUsersResponse>;
  /**
   * Refuses a connection from an address an IP ban names; otherwise runs `thenConnect` (the user's upsert) while
   * remembering the user's address for later IP bans, so that both writes can share one commit.
   */
  admitConnection<T>(
    appId: string,
    userId: string | null,
    address: string,
    thenConnect: () => Promise<T>,
  ): Promise<T>;
}

export interface BansContext {
  deps: ChatDeps;
  users: UsersService;
  channels: ChannelsService;
  events: EventPublisher;
}

export function createBansService(context: BansContext): BansService {
  const { deps, users } = context;
  const repo = createBansRepo(deps.db);
  // A channel ban is read from the membership on every access; only an app-wide one is cached per node.
  const changed = (request: { appId: string; targetId: string }, scope: BanScope) =>
    scope.access
      ? users.forgetStanding(request.appId, request.targetId)
      : users.standingChanged(request.appId, request.targetId);
  return {
    async ban(request) {
      checkBanValues(request);
      const scope = await authorizeBan(context, request, 'ban');
      const row = await banRow(context, repo, request);
      await deps.db.transaction().execute(async (tx) => {
        await repo.put(tx, row);
        await mirror(tx, row, scope);
      });
      await changed(request, scope);
      await announce(context, 'user.banned', row, scope);
    },

    async unban(request) {
      const scope = await authorizeBan(context, request, 'unban');
      const cid = request.channelCid ?? APP_WIDE;
      const current = await repo.get(request.appId, request.targetId, cid);
      // Unbanning someone who is not banned (or lifting a shadow ban they do not have) changes nothing.
      if (!current || (request.shadow === true && current.shadow !== 1)) return;
      await deps.db.transaction().execute(async (tx) => {
        await repo.remove(tx, request.appId, request.targetId, cid);
        await mirror(tx, { ...current, shadow: 0, expires: null }, scope, false);
      });
      await changed(request, scope);
      await announce(context, 'user.unbanned', current, scope);
    },

    queryBannedUsers: createBanQuery({ ...context, repo }),

    async admitConnection(appId, userId, address, thenConnect) {
      const now = deps.clock.now();
      if (await repo.addressBanned(appId, address, now))
        throw chatError.notAllowed('connections from this address are banned');
      if (!userId) return thenConnect();
      // Group-committed, patiently, with the other writes of the moment: a reconnect storm brings thousands. Queued
      // first, so the upsert's write joins the same commit.
      const recorded = deps.writes.run(
        (trx) => repo.recordAddress(appId, userId, address, now, trx),
        PATIENT,
      );
      const [connected] = await Promise.all([thenConnect(), recorded]);
      return connected;
    },
  };
}

async function banRow(
  { deps, users }: BansContext,
  repo: BansRepo,
  request: BanRequest,
): Promise<BanRow> {
  const now = deps.clock.now();
  const minutes = request.timeoutMinutes;
  return {
    app_id: request.appId,
    user_id: request.targetId,
    cid: request.channelCid ?? APP_WIDE,
    shadow: request.shadow ? 1 : 0,
    reason: request.reason || null,
    banned_by_id: await bannedByOf(users, request.actor, request.bannedById),
    ip: request.ipBan ? await repo.lastAddress(request.appId, request.targetId) : null,
    created_at: now,
    expires:
      minutes === undefined ? null : isoFromMicros((deps.clock.nowMs() + minutes * 60_000) * 1000),
  };
}

/**
 * Copies the ban onto the flags every access check already reads: the user's (app-wide) or the membership's (in a
 * channel; none when the user is not a member). A shadow ban leaves `banned` alone: the user must not notice it.
 */
async function mirror(
  tx: Db,
  row: Pick<BanRow, 'app_id' | 'user_id' | 'cid' | 'shadow' | 'expires'>,
  scope: BanScope,
  banned = true,
): Promise<void> {
  const open = banned && row.shadow !== 1 ? 1 : 0;
  const shadow = banned && row.shadow === 1 ? 1 : 0;
  if (!scope.access) {
    await tx
      .updateTable('users')
      .set({ banned: open, ban_expires: row.expires })
      .where('app_id', '=', row.app_id)
      .where('id', '=', row.user_id)
      .execute();
    return;
  }
  await tx
    .updateTable('members')
    .set({ banned: open, shadow_banned: shadow, ban_expires: row.expires })
    .where('app_id', '=', row.app_id)
    .where('cid', '=', row.cid)
    .where('user_id', '=', row.user_id)
    .execute();
}

/**
 * `user.banned` / `user.unbanned`: a channel ban to the channel's watchers (stream-chat updates the member from it),
 * an app-wide one to the user's own connections. The user never hears of their shadow ban.
 */
async function announce(
  { deps, users, events }: BansContext,
  type: 'user.banned' | 'user.unbanned',
  row: BanRow,
  scope: BanScope,
): Promise<void> {
  const now = deps.clock.now();
  const user = users.toResponse(scope.target);
  const shadow = row.shadow === 1;
  const createdBy = row.banned_by_id
    ? await users.response(row.app_id, row.banned_by_id)
    : undefined;
  const details =
    type === 'user.banned'
      ? {
          user,
          shadow,
          ...(createdBy ? { created_by: createdBy } : {}),
          ...(row.expires ? { expiration: row.expires } : {}),
          ...(row.reason ? { reason: row.reason } : {}),
        }
      : { user, shadow };
  if (scope.access) {
    const channel = scope.access.channel;
    events.toChannel(row.app_id, channel.cid, channelEvent(type, channel, now, details), {
      skipUserIds: shadow ? [row.user_id] : [],
    });
    return;
  }
  if (!shadow) events.toUser(row.app_id, row.user_id, userEvent(type, now, details));
}
