import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  filter,
  jsonObject,
  loose,
  noFields,
  optionalBoolean,
  pageNumber,
  sort,
  stringList,
} from '../../../http/schemas.ts';
import type { UsersService } from './service.ts';

/** client.upsertUsers: `{users: {[id]: user}}`; every user's own fields are checked by the service. */
const upsertBody = loose({ users: z.record(z.string(), jsonObject) });

/** client.partialUpdateUsers: `{users: [{id, set?, unset?}]}`. */
const partialUpdateBody = loose({
  users: z.array(
    loose({ id: z.string(), set: jsonObject.optional(), unset: stringList.optional() }),
  ),
});

/** client.queryUsers(filter, sort, options) as `?payload=`. */
const queryUsersPayload = loose({
  filter_conditions: filter,
  sort,
  limit: pageNumber,
  offset: pageNumber,
  presence: optionalBoolean,
  include_deactivated_users: optionalBoolean,
});

export function registerUserRoutes(app: FastifyInstance, services: { users: UsersService }): void {
  defineRoute(app, {
    method: 'POST',
    url: '/users',
    query: noFields,
    body: upsertBody,
    handler: async ({ body }, request) => ({
      users: await services.users.upsertUsers(actorOf(request), body.users),
    }),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: '/users',
    query: noFields,
    body: partialUpdateBody,
    handler: async ({ body }, request) => ({
      users: await services.users.partialUpdateUsers(actorOf(request), body.users),
    }),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/users',
    payload: queryUsersPayload,
    handler: async ({ payload }, request) => ({
      users: await services.users.queryUsers(actorOf(request), payload),
    }),
  });
}
