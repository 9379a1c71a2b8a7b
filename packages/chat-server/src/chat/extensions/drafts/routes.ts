import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  channelParams,
  cursor,
  filter,
  loose,
  messageInput,
  noFields,
  optionalString,
  pageNumber,
  queryValue,
  sort,
} from '../../../http/schemas.ts';
import type { DraftsService } from './service.ts';

/** channel.createDraft(message): `{message: {text, parent_id?, quoted_message_id?, poll_id?, …}, user_id?}`. */
const upsertBody = loose({ message: messageInput.nullish(), user_id: optionalString });

/** channel.getDraft / deleteDraft: a thread's draft by `parent_id`, another user's by `user_id` (server-side). */
const draftQuery = loose({ parent_id: queryValue, user_id: queryValue });

/** client.queryDrafts({filter, sort, limit, next | prev}). */
const queryBody = loose({
  filter,
  sort,
  limit: pageNumber,
  next: cursor,
  prev: cursor,
  user_id: optionalString,
});

export function registerDraftRoutes(
  app: FastifyInstance,
  services: { drafts: DraftsService },
): void {
  const { drafts } = services;
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/draft',
    params: channelParams,
    query: noFields,
    body: upsertBody,
    handler: async ({ params, body }, request) =>
      drafts.upsert(actorOf(request), params.type, params.id, body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/channels/:type/:id/draft',
    params: channelParams,
    query: draftQuery,
    handler: async ({ params, query }, request) =>
      drafts.get(
        actorOf(request),
        params.type,
        params.id,
        query.parent_id || undefined,
        query.user_id,
      ),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/channels/:type/:id/draft',
    params: channelParams,
    query: draftQuery,
    handler: async ({ params, query }, request) =>
      drafts.remove(
        actorOf(request),
        params.type,
        params.id,
        query.parent_id || undefined,
        query.user_id,
      ),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/drafts/query',
    query: noFields,
    body: queryBody,
    handler: async ({ body }, request) => drafts.query(actorOf(request), body),
  });
}
