import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  cursor,
  filter,
  idParams,
  jsonQuery,
  loose,
  noFields,
  optionalBoolean,
  optionalString,
  pageNumber,
  partialUpdate,
  queryNumeral,
  queryValue,
  sort,
} from '../../../http/schemas.ts';
import type { ThreadsService } from './service.ts';

/** client.queryThreads(options): `{filter, sort, limit, reply_limit, participant_limit, member_limit, next, watch}`. */
const queryBody = loose({
  filter,
  sort,
  limit: pageNumber,
  reply_limit: pageNumber,
  participant_limit: pageNumber,
  member_limit: pageNumber,
  next: cursor,
  prev: cursor,
  watch: optionalBoolean,
  user_id: optionalString,
});

/** client.getThread(id, options): the options arrive as query strings. */
const getQuery = jsonQuery({
  reply_limit: queryNumeral,
  participant_limit: queryNumeral,
  member_limit: queryNumeral,
  watch: queryValue,
});

export function registerThreadRoutes(
  app: FastifyInstance,
  services: { threads: ThreadsService },
): void {
  const { threads } = services;
  defineRoute(app, {
    method: 'POST',
    url: '/threads',
    query: noFields,
    body: queryBody,
    handler: async ({ body }, request) => threads.query(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/threads/:id',
    params: idParams,
    query: getQuery,
    handler: async ({ params, query }, request) => threads.get(actorOf(request), params.id, query),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: '/threads/:id',
    params: idParams,
    query: noFields,
    body: loose({ ...partialUpdate, user_id: optionalString }),
    handler: async ({ params, body }, request) =>
      threads.partialUpdate(actorOf(request), params.id, body),
  });
}
