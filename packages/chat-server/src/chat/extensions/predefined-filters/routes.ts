import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  jsonObject,
  loose,
  noFields,
  optionalString,
  queryJsonValue,
  queryNumeral,
  queryValue,
} from '../../../http/schemas.ts';
import type { PredefinedFiltersService } from './service.ts';

const sortTemplate = z
  .array(loose({ field: z.string(), direction: z.number().nullish(), type: optionalString }))
  .nullish();

/** client.updatePredefinedFilter(name, {operation, filter, description?, sort?}). */
const filterBody = loose({
  operation: z.string(),
  filter: jsonObject,
  description: optionalString,
  sort: sortTemplate,
});

/** client.createPredefinedFilter({name, …}). */
const createBody = filterBody.extend({ name: z.string() });

/** client.listPredefinedFilters({limit?, next?, prev?, sort?}): the sort as a JSON query value. */
const listQuery = loose({
  limit: queryNumeral,
  next: queryValue,
  prev: queryValue,
  sort: queryJsonValue(
    'sort',
    z.array(loose({ field: z.string(), direction: z.number().nullish() })),
  ),
});

const nameParams = z.object({ name: z.string() });

/** Stream's predefined filters, every route server-side only (service.ts). */
export function registerPredefinedFilterRoutes(
  app: FastifyInstance,
  services: { predefinedFilters: PredefinedFiltersService },
): void {
  const filters = services.predefinedFilters;
  defineRoute(app, {
    method: 'POST',
    url: '/predefined_filters',
    query: noFields,
    body: createBody,
    handler: async ({ body }, request) => filters.create(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/predefined_filters',
    query: listQuery,
    handler: async ({ query }, request) =>
      filters.list(actorOf(request), {
        limit: query.limit ? Number(query.limit) : undefined,
        next: query.next || undefined,
        prev: query.prev || undefined,
        sort: query.sort,
      }),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/predefined_filters/:name',
    params: nameParams,
    query: noFields,
    handler: async ({ params }, request) => filters.get(actorOf(request), params.name),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/predefined_filters/:name',
    params: nameParams,
    query: noFields,
    body: filterBody,
    handler: async ({ params, body }, request) =>
      filters.update(actorOf(request), params.name, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/predefined_filters/:name',
    params: nameParams,
    query: noFields,
    handler: async ({ params }, request) => filters.remove(actorOf(request), params.name),
  });
}
