import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { pickCustom, type JsonObject } from '../../core/json.ts';
import { actingUser, existingUser, requiredId } from './checks.ts';
import type { FlagRow } from './repo.ts';
import type { ModerationContext } from './service.ts';

const MAX_REASON_LENGTH = 500;
const FLAG_RESERVED = new Set(['target_message_id', 'target_user_id', 'reason', 'user_id']);

/** The columns of a flag that do not depend on what is flagged. */
type FlagBase = Omit<FlagRow, 'target' | 'target_message_id' | 'target_user_id' | 'channel_cid'>;

function flagBase(context: ModerationContext, actor: Actor, userId: string, body: JsonObject) {
  const reason = body.reason ?? '';
  if (typeof reason !== 'string' || reason.length > MAX_REASON_LENGTH)
    throw chatError.input(`reason must be text of at most ${MAX_REASON_LENGTH} characters`);
  const custom = JSON.stringify(pickCustom(body, FLAG_RESERVED, 'flag'));
  const now = context.deps.clock.now();
  return {
    app_id: actor.appId,
    user_id: userId,
    reason,
    custom,
    created_at: now,
    updated_at: now,
  } satisfies FlagBase;
}

async function flagMessage(
  { deps, repo, messages }: ModerationContext,
  actor: Actor,
  base: FlagBase,
  target: unknown,
): Promise<FlagRow> {
  const userId = base.user_id;
  const messageId = requiredId(target, 'target_message_id');
  // Only what the reporter can read may be reported.
  const { row: message, access } = await messages.accessMessage(
    actor.isServer ? { ...actor, userId } : actor,
    messageId,
  );
  if (message.user_id === userId) throw chatError.input('you cannot flag your own message');
  if (!actor.isServer && !access.permissions.has('flag-message'))
    throw chatError.notAllowed('flagging messages in this channel is not allowed');
  return deps.writes.run((trx) =>
    repo.flag(trx, {
      ...base,
      target: `message:${messageId}`,
      target_message_id: messageId,
      target_user_id: null,
      channel_cid: message.cid,
    }),
  );
}

async function flagUser(
  context: ModerationContext,
  actor: Actor,
  base: FlagBase,
  target: unknown,
): Promise<FlagRow> {
  const { deps, repo } = context;
  const targetId = requiredId(target, 'target_user_id');
  if (targetId === base.user_id) throw chatError.input('you cannot flag yourself');
  await existingUser(context, actor.appId, targetId);
  return deps.writes.run((trx) =>
    repo.flag(trx, {
      ...base,
      target: `user:${targetId}`,
      target_message_id: null,
      target_user_id: targetId,
      channel_cid: null,
    }),
  );
}

async function flagResponse(
  { users }: ModerationContext,
  appId: string,
  userId: string,
  row: FlagRow,
): Promise<JsonObject> {
  const byId = await users.responses(appId, [userId, row.target_user_id ?? userId]);
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
}

/** Reports a message or a user for moderators to review; nothing is hidden by it. */
export async function flag(
  context: ModerationContext,
  actor: Actor,
  body: JsonObject,
): Promise<JsonObject> {
  const userId = actingUser(actor, body.user_id, 'flag');
  const base = flagBase(context, actor, userId, body);
  let row: FlagRow;
  if (body.target_message_id !== undefined)
    row = await flagMessage(context, actor, base, body.target_message_id);
  else if (body.target_user_id !== undefined)
    row = await flagUser(context, actor, base, body.target_user_id);
  else throw chatError.input('target_message_id or target_user_id is required');
  return flagResponse(context, actor.appId, userId, row);
}
