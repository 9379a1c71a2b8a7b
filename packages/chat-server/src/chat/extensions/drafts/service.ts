import type { Actor } from '../../core/access/access.ts';
import type { JsonObject } from '../../core/json.ts';
import type { DraftsContext } from './context.ts';
import { queryDrafts } from './query.ts';
import { channelDrafts, getDraft, threadDrafts } from './read.ts';
import type { DraftResponse } from './serialize.ts';
import { removeDraft, upsertDraft } from './write.ts';

export type { DraftsContext } from './context.ts';

export interface DraftsService {
  upsert(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ draft: DraftResponse }>;
  get(
    actor: Actor,
    typeName: string,
    id: string,
    parentId: string | undefined,
    userId: string | undefined,
  ): Promise<{ draft: DraftResponse }>;
  remove(
    actor: Actor,
    typeName: string,
    id: string,
    parentId: string | undefined,
    userId: string | undefined,
  ): Promise<Record<string, never>>;
  query(
    actor: Actor,
    body: JsonObject,
  ): Promise<{ drafts: DraftResponse[]; next?: string; prev?: string }>;
  /** The viewer's channel drafts, for channel responses (`draft`). */
  channelDrafts(actor: Actor, cids: readonly string[]): Promise<Map<string, DraftResponse>>;
  /** The viewer's thread drafts, by parent message id, for thread responses (`draft`). */
  threadDrafts(
    actor: Actor,
    threads: readonly { cid: string; parentId: string }[],
  ): Promise<Map<string, DraftResponse>>;
}

/** Assembles the drafts service from its use cases (write.ts, read.ts, query.ts), all over one context. */
export function createDraftsService(context: DraftsContext): DraftsService {
  return {
    upsert: (actor, typeName, id, body) => upsertDraft(context, actor, typeName, id, body),
    get: (actor, typeName, id, parentId, userId) =>
      getDraft(context, actor, typeName, id, parentId, userId),
    remove: (actor, typeName, id, parentId, userId) =>
      removeDraft(context, actor, typeName, id, parentId, userId),
    query: (actor, body) => queryDrafts(context, actor, body),
    channelDrafts: (actor, cids) => channelDrafts(context, actor, cids),
    threadDrafts: (actor, threads) => threadDrafts(context, actor, threads),
  };
}
