import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { draftChannelAccess, draftOwner, draftResponses, type DraftsContext } from './context.ts';
import type { DraftResponse } from './serialize.ts';

export async function getDraft(
  ctx: DraftsContext,
  actor: Actor,
  typeName: string,
  id: string,
  parentId: string | undefined,
  givenUser: string | undefined,
): Promise<{ draft: DraftResponse }> {
  const access = await draftChannelAccess(ctx, actor, typeName, id);
  const userId = draftOwner(actor, givenUser);
  const row = await ctx.repo.get({
    appId: actor.appId,
    userId,
    cid: access.channel.cid,
    parentId: parentId ?? '',
  });
  // Stream names the failed operation and quotes the reason, as for every missing object.
  if (!row) throw chatError.notFound('GetDraft failed with error: "draft not found"');
  const [draft] = await draftResponses(ctx, actor.appId, userId, [row]);
  return { draft: draft! };
}

/** The viewer's channel drafts by cid, for channel responses (`draft`). */
export async function channelDrafts(
  ctx: DraftsContext,
  actor: Actor,
  cids: readonly string[],
): Promise<Map<string, DraftResponse>> {
  const result = new Map<string, DraftResponse>();
  if (!actor.userId || cids.length === 0) return result;
  const rows = await ctx.repo.channelDrafts(actor.appId, actor.userId, cids);
  if (rows.length === 0) return result;
  const drafts = await draftResponses(ctx, actor.appId, actor.userId, rows);
  for (const draft of drafts) result.set(draft.channel_cid, draft);
  return result;
}

/** The viewer's thread drafts by parent message id, for thread responses (`draft`). */
export async function threadDrafts(
  ctx: DraftsContext,
  actor: Actor,
  threads: readonly { cid: string; parentId: string }[],
): Promise<Map<string, DraftResponse>> {
  const result = new Map<string, DraftResponse>();
  if (!actor.userId || threads.length === 0) return result;
  const rows = await ctx.repo.threadDrafts(
    actor.appId,
    actor.userId,
    threads.map((t) => t.parentId),
  );
  const wanted = new Set(threads.map((t) => `${t.cid}\n${t.parentId}`));
  const mine = rows.filter((r) => wanted.has(`${r.cid}\n${r.parent_id}`));
  if (mine.length === 0) return result;
  for (const draft of await draftResponses(ctx, actor.appId, actor.userId, mine))
    result.set(draft.parent_id!, draft);
  return result;
}
