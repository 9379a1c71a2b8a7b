import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  cursor,
  filter,
  idParams,
  loose,
  noFields,
  optionalBoolean,
  optionalString,
  pageNumber,
  queryNumeral,
  queryValue,
  sort,
} from '../../../http/schemas.ts';
import { boundedInt, PAGE_BOUNDS } from '../query/bounds.ts';
import type { ReactionsService } from './service.ts';

/** message.sendReaction: `{reaction: {type, score?, user_id?, …custom}, enforce_unique?, skip_push?}`. */
const sendBody = loose({
  reaction: loose({
    type: z.string(),
    score: z.number().optional(),
    user_id: optionalString,
    user: loose({ id: optionalString }).nullish(),
  }),
  enforce_unique: optionalBoolean,
  skip_push: optionalBoolean,
});

/** client.queryReactions(messageId, filter, sort, options). */
const queryBody = loose({ filter, sort, limit: pageNumber, next: cursor, prev: cursor });

export function registerReactionRoutes(
  app: FastifyInstance,
  services: { reactions: ReactionsService },
): void {
  const { reactions } = services;
  defineRoute(app, {
    method: 'POST',
    url: '/messages/:id/reaction',
    params: idParams,
    query: noFields,
    body: sendBody,
    handler: async ({ params, body }, request) => reactions.send(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/messages/:id/reaction/:type',
    params: idParams.extend({ type: z.string() }),
    query: loose({ user_id: queryValue }),
    handler: async ({ params, query }, request) =>
      reactions.remove(actorOf(request), params.id, params.type, query.user_id),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/messages/:id/reactions',
    params: idParams,
    query: loose({ limit: queryNumeral, offset: queryNumeral }),
    handler: async ({ params, query }, request) =>
      reactions.list(
        actorOf(request),
        params.id,
        // Stream's caps for listing reactions.
        boundedInt(query.limit, 'limit', { min: 0, max: 300, fallback: 10 }),
        boundedInt(query.offset, 'offset', { min: 0, max: PAGE_BOUNDS.maxOffset, fallback: 0 }),
      ),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/messages/:id/reactions',
    params: idParams,
    query: noFields,
    body: queryBody,
    handler: async ({ params, body }, request) =>
      reactions.query(actorOf(request), params.id, body),
  });
}
