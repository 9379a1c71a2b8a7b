import type { BlockedUserDetails, BlockUserAPIResponse } from 'stream-chat';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import { pickCustom, type JsonObject } from '../../core/json.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { FlagRow, ModerationRepo } from './repo.ts';

export interface ModerationService {
  block(actor: Actor, body: JsonObject): Promise<JsonObject>;
  unblock(actor: Actor, body: JsonObject): Promise<JsonObject>;
  blocks(actor: Actor, query: JsonObject): Promise<JsonObject>;
  flag(actor: Actor, body: JsonObject): Promise<JsonObject>;
  /** The ids the user blocked, for `me.blocked_user_ids` (what the client's blockedUsers starts from). */
  blockedUserIds(appId: string, userId: string): Promise<string[]>;
}

const MAX_REASON_LENGTH = 500;
const FLAG_RESERVED = new Set(['target_message_id', 'target_user_id', 'reason', 'user_id']);

/**
 * Blocks and flags as the client drives them: a user blocks and unblocks others and lists whom they blocked, and
 * reports (flags) a message or a user. Flags are stored for moderators; nothing is hidden automatically.
 */
export interface ModerationContext {
  deps: ChatDeps;
  repo: ModerationRepo;
  users: UsersService;
  messages: MessagesService;
}

export function createModerationService({
  deps,
  repo,
  users,
  messages,
}: ModerationContext): ModerationService {
  function actingUser(actor: Actor, given: unknown, what: string): string {
    const id = actor.isServer && typeof given === 'string' && given ? given : actor.userId;
    if (!id) throw chatError.input('user_id is required');
    if (actor.role === 'anonymous' || actor.role === 'guest')
      throw chatError.notAllowed(`${actor.role} users cannot ${what}`);
    return id;
  }

  function requiredId(value: unknown, name: string): string {
    if (typeof value !== 'string' || value.length === 0 || value.length > 255)
      throw chatError.input(`${name} is required`);
    return value;
  }

  async function existingUser(appId: string, id: string) {
    const row = await users.getRow(appId, id);
    if (!row) throw chatError.notFound(`user ${id} does not exist`);
    return row;
  }

  return {
    async block(actor, body) {
      const userId = actingUser(actor, body.user_id, 'block users');
      const blockedId = requiredId(body.blocked_user_id, 'blocked_user_id');
      if (blockedId === userId) throw chatError.input('you cannot block yourself');
      await existingUser(actor.appId, blockedId);
      const row = await deps.writes.run((trx) =>
        repo.block(trx, {
          app_id: actor.appId,
          user_id: userId,
          blocked_user_id: blockedId,
          created_at: deps.clock.now(),
        }),
      );
      return {
        blocked_at: row.created_at,
        blocked_by_user_id: userId,
        blocked_user_id: blockedId,
      } satisfies Omit<BlockUserAPIResponse, 'duration'>;
    },

    async unblock(actor, body) {
      const userId = actingUser(actor, body.user_id, 'unblock users');
      const blockedId = requiredId(body.blocked_user_id, 'blocked_user_id');
      await deps.writes.run((trx) => repo.unblock(trx, actor.appId, userId, blockedId));
      return {};
    },

    async blocks(actor, query) {
      const userId = actingUser(actor, query.user_id, 'list blocked users');
      const rows = await repo.blocks(actor.appId, userId);
      const byId = await users.responses(actor.appId, [
        userId,
        ...rows.map((r) => r.blocked_user_id),
      ]);
      return {
        // responses() answers every id asked for (a placeholder for a deleted user).
        blocks: rows.map(
          (row) =>
            ({
              user_id: userId,
              user: byId.get(userId)!,
              blocked_user_id: row.blocked_user_id,
              blocked_user: byId.get(row.blocked_user_id)!,
              created_at: row.created_at,
            }) satisfies Omit<BlockedUserDetails, 'duration'>,
        ),
      };
    },

    async flag(actor, body) {
      const userId = actingUser(actor, body.user_id, 'flag');
      const reason = body.reason ?? '';
      if (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH)
        throw chatError.input(`reason must be text of at most ${MAX_REASON_LENGTH} characters`);
      const custom = JSON.stringify(pickCustom(body, FLAG_RESERVED, 'flag'));
      const now = deps.clock.now();
      const base = {
        app_id: actor.appId,
        user_id: userId,
        reason,
        custom,
        created_at: now,
        updated_at: now,
      };
      let row: FlagRow;
      if (body.target_message_id !== undefined) {
        const messageId = requiredId(body.target_message_id, 'target_message_id');
        // Only what the reporter can read may be reported.
        const { row: message, access } = await messages.accessMessage(
          actor.isServer ? { ...actor, userId } : actor,
          messageId,
        );
        if (message.user_id === userId) throw chatError.input('you cannot flag your own message');
        if (!actor.isServer && !access.permissions.has('flag-message'))
          throw chatError.notAllowed('flagging messages in this channel is not allowed');
        row = await deps.writes.run((trx) =>
          repo.flag(trx, {
            ...base,
            target: `message:${messageId}`,
            target_message_id: messageId,
            target_user_id: null,
            channel_cid: message.cid,
          }),
        );
      } else if (body.target_user_id !== undefined) {
        const targetId = requiredId(body.target_user_id, 'target_user_id');
        if (targetId === userId) throw chatError.input('you cannot flag yourself');
        await existingUser(actor.appId, targetId);
        row = await deps.writes.run((trx) =>
          repo.flag(trx, {
            ...base,
            target: `user:${targetId}`,
            target_message_id: null,
            target_user_id: targetId,
            channel_cid: null,
          }),
        );
      } else {
        throw chatError.input('target_message_id or target_user_id is required');
      }
      const byId = await users.responses(actor.appId, [userId, row.target_user_id ?? userId]);
      return {
        flag: {
          user: byId.get(userId),
          created_by_automod: false,
          created_at: row.created_at,
          updated_at: row.updated_at,
          ...(row.reason ? { reason: row.reason } : {}),
          ...(row.target_message_id
            ? { target_message_id: row.target_message_id, channel_cid: row.channel_cid }
            : { target_user: byId.get(row.target_user_id!) }),
        },
      };
    },

    async blockedUserIds(appId, userId) {
      return (await repo.blocks(appId, userId)).map((row) => row.blocked_user_id);
    },
  };
}
