import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { cursor, filter, loose, optionalString, pageNumber, sort } from '../../../http/schemas.ts';
import type { SearchService } from './service.ts';

/** client.search(filter, query | message_filter, options) as `?payload=`. */
const searchPayload = loose({
  filter_conditions: filter,
  query: optionalString,
  message_filter_conditions: filter,
  sort,
  limit: pageNumber,
  offset: pageNumber,
  next: cursor,
});

export function registerSearchRoutes(
  app: FastifyInstance,
  services: { search: SearchService },
): void {
  defineRoute(app, {
    method: 'GET',
    url: '/search',
    payload: searchPayload,
    handler: async ({ payload }, request) => services.search.search(actorOf(request), payload),
  });
}
