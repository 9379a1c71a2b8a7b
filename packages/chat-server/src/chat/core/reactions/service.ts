import type { Actor } from '../access/access.ts';
import type { JsonObject } from '../json.ts';
import type { ReactionsContext } from './context.ts';
import { listReactions, queryReactions } from './read.ts';
import type { ReactionResponse } from './serialize.ts';
import { removeReaction, sendReaction, type ReactionResult } from './write.ts';

export type { ReactionsContext } from './context.ts';

export interface ReactionsService {
  send(actor: Actor, messageId: string, body: JsonObject): Promise<ReactionResult>;
  remove(
    actor: Actor,
    messageId: string,
    type: string,
    userId: string | undefined,
  ): Promise<ReactionResult>;
  list(
    actor: Actor,
    messageId: string,
    limit: number,
    offset: number,
  ): Promise<{ reactions: ReactionResponse[] }>;
  query(
    actor: Actor,
    messageId: string,
    body: JsonObject,
  ): Promise<{ reactions: ReactionResponse[]; next?: string }>;
}

/** Assembles the reactions service from its write (write.ts) and read (read.ts) use cases. */
export function createReactionsService(context: ReactionsContext): ReactionsService {
  return {
    send: (actor, messageId, body) => sendReaction(context, actor, messageId, body),
    remove: (actor, messageId, type, userId) =>
      removeReaction(context, actor, messageId, type, userId),
    list: (actor, messageId, limit, offset) =>
      listReactions(context, actor, messageId, limit, offset),
    query: (actor, messageId, body) => queryReactions(context, actor, messageId, body),
  };
}
