import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import { referencedMessage, viewerWindows } from '../../core/access/visibility.ts';
import type { JsonObject } from '../../core/json.ts';
import {
  announceDraft,
  draftChannelAccess,
  draftOwner,
  draftResponses,
  type DraftsContext,
} from './context.ts';
import { readDraft, type DraftInput } from './input.ts';
import type { DraftResponse } from './serialize.ts';

/** The same rules as sending: what the owner cannot see in this channel, the draft cannot refer to. */
async function checkReferences(
  ctx: DraftsContext,
  actor: Actor,
  cid: string,
  userId: string,
  input: DraftInput,
): Promise<void> {
  const bound =
    input.parentId || input.quotedId
      ? (await viewerWindows(ctx.messages, actor.appId, [cid], userId))(cid).hiddenThrough
      : null;
  for (const [messageId, what] of [
    [input.parentId || null, 'parent message'],
    [input.quotedId, 'quoted message'],
  ] as const) {
    if (!messageId) continue;
    const row = await referencedMessage(ctx.messages, actor.appId, messageId, {
      cid,
      bound,
      writerId: userId,
      what,
    });
    if (what === 'parent message' && row.parent_id)
      throw chatError.nesting('a reply cannot be the parent of another reply');
  }
}

/** A drafted poll must be the owner's and not yet on a sent message. */
async function checkPoll(
  ctx: DraftsContext,
  appId: string,
  userId: string,
  pollId: string,
): Promise<void> {
  const poll = await ctx.deps.db
    .selectFrom('polls')
    .select(['created_by_id', 'message_id'])
    .where('app_id', '=', appId)
    .where('id', '=', pollId)
    .executeTakeFirst();
  if (!poll || poll.created_by_id !== userId)
    throw chatError.input(`poll with id ${pollId} does not exist`);
  // A poll goes on one message only; one already sent cannot be drafted again.
  if (poll.message_id && (await ctx.messages.get(appId, poll.message_id)))
    throw chatError.input(`poll ${pollId} is already attached to a message`);
}

export async function upsertDraft(
  ctx: DraftsContext,
  actor: Actor,
  typeName: string,
  id: string,
  body: JsonObject,
): Promise<{ draft: DraftResponse }> {
  const { deps, repo } = ctx;
  const access = await draftChannelAccess(ctx, actor, typeName, id);
  const userId = draftOwner(actor, body.user_id);
  const maxText = Math.min(
    access.type.config.max_message_length,
    deps.config.limits.maxMessageLength,
  );
  const input = readDraft(body.message, maxText);
  const cid = access.channel.cid;
  requirePermission(
    access.permissions,
    input.parentId ? 'send-reply' : 'send-message',
    `drafting a message in ${cid}`,
  );
  await checkReferences(ctx, actor, cid, userId, input);
  if (input.pollId) await checkPoll(ctx, actor.appId, userId, input.pollId);
  const now = deps.clock.now();
  await deps.writes.run((trx) =>
    repo.upsert(trx, {
      app_id: actor.appId,
      user_id: userId,
      cid,
      parent_id: input.parentId,
      message: JSON.stringify(input.message),
      created_at: now,
      updated_at: now,
    }),
  );
  const row = await repo.get({ appId: actor.appId, userId, cid, parentId: input.parentId });
  const [draft] = await draftResponses(ctx, actor.appId, userId, [row!]);
  announceDraft(ctx, actor, userId, 'draft.updated', draft!);
  return { draft: draft! };
}

export async function removeDraft(
  ctx: DraftsContext,
  actor: Actor,
  typeName: string,
  id: string,
  parentId: string | undefined,
  givenUser: string | undefined,
): Promise<Record<string, never>> {
  const access = await draftChannelAccess(ctx, actor, typeName, id);
  const userId = draftOwner(actor, givenUser);
  const key = { appId: actor.appId, userId, cid: access.channel.cid, parentId: parentId ?? '' };
  const row = await ctx.repo.get(key);
  if (!row) throw chatError.notFound('DeleteDraft failed with error: "draft not found"');
  await ctx.deps.writes.run((trx) => ctx.repo.remove(trx, key));
  const [draft] = await draftResponses(ctx, actor.appId, userId, [row]);
  announceDraft(ctx, actor, userId, 'draft.deleted', draft!);
  return {};
}
