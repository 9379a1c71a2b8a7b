import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  idParams,
  loose,
  optionalBoolean,
  optionalString,
  queryNumeral,
  queryValue,
  stringList,
} from '../../../http/schemas.ts';
import type { UserGroupsService } from './service.ts';

/**
 * Every user-group call may name a `team_id`, which Stream supports only in a multi-tenant app and otherwise refuses
 * (code 4, "team_id is not supported"). Multi-tenancy cannot be turned on here (PATCH /app), so it is always refused.
 */
const noTeam = optionalString.refine((value) => !value, {
  error: 'is not supported without multi-tenancy',
});

/** client.createUserGroup({name, id?, description?, member_ids?, team_id?}). */
const createBody = loose({
  name: z.string(),
  id: optionalString,
  description: optionalString,
  member_ids: stringList.nullish(),
  team_id: noTeam,
});

/** client.updateUserGroup(id, {name?, description?, team_id?}). */
const updateBody = loose({
  name: optionalString,
  description: optionalString,
  team_id: noTeam,
});

/** client.addUserGroupMembers / removeUserGroupMembers(id, {member_ids, as_admin?, team_id?}). */
const membersBody = loose({
  member_ids: stringList,
  as_admin: optionalBoolean,
  team_id: noTeam,
});

const teamQuery = loose({ team_id: noTeam });

/** client.queryUserGroups({limit?, id_gt?, created_at_gt?, team_id?}) as query-string values. */
const listQuery = loose({
  limit: queryNumeral,
  id_gt: queryValue,
  created_at_gt: queryValue,
  team_id: noTeam,
});

/** client.searchUserGroups({query, limit?, id_gt?, name_gt?, team_id?}). */
const searchQuery = loose({
  query: z.string(),
  limit: queryNumeral,
  id_gt: queryValue,
  name_gt: queryValue,
  team_id: noTeam,
});

/** Stream's user groups: reads for every signed-in user, writes server-side only (service.ts). */
export function registerUserGroupRoutes(
  app: FastifyInstance,
  services: { userGroups: UserGroupsService },
): void {
  const groups = services.userGroups;
  defineRoute(app, {
    method: 'POST',
    url: '/usergroups',
    query: teamQuery,
    body: createBody,
    handler: async ({ body }, request) => groups.create(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/usergroups',
    query: listQuery,
    handler: async ({ query }, request) => groups.query(actorOf(request), query),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/usergroups/search',
    query: searchQuery,
    handler: async ({ query }, request) => groups.search(actorOf(request), query),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/usergroups/:id',
    params: idParams,
    query: teamQuery,
    handler: async ({ params }, request) => groups.get(actorOf(request), params.id),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/usergroups/:id',
    params: idParams,
    query: teamQuery,
    body: updateBody,
    handler: async ({ params, body }, request) => groups.update(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/usergroups/:id',
    params: idParams,
    query: teamQuery,
    handler: async ({ params }, request) => groups.remove(actorOf(request), params.id),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/usergroups/:id/members',
    params: idParams,
    query: teamQuery,
    body: membersBody,
    handler: async ({ params, body }, request) =>
      groups.addMembers(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/usergroups/:id/members/delete',
    params: idParams,
    query: teamQuery,
    body: membersBody,
    handler: async ({ params, body }, request) =>
      groups.removeMembers(actorOf(request), params.id, body),
  });
}
