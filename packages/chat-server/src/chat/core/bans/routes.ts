import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { chatError } from '../../../errors.ts';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  filter,
  loose,
  noFields,
  optionalBoolean,
  optionalString,
  pageNumber,
  queryValue,
  sort,
} from '../../../http/schemas.ts';
import { MAX_REASON_LENGTH, MAX_TIMEOUT_MINUTES } from './rules.ts';
import type { BansService } from './service.ts';

/** client.banUser / shadowBan and their channel forms (`type` + `id`): the options of BanUserOptions we honour. */
const banBody = loose({
  target_user_id: z.string().min(1),
  type: optionalString,
  id: optionalString,
  timeout: z.number().int().min(1).max(MAX_TIMEOUT_MINUTES).nullish(),
  reason: z.string().max(MAX_REASON_LENGTH).nullish(),
  shadow: optionalBoolean,
  ip_ban: optionalBoolean,
  banned_by_id: optionalString,
  banned_by: loose({ id: z.string() }).nullish(),
});

/** client.unbanUser / removeShadowBan: the same target, in the query string. */
const unbanQuery = loose({
  target_user_id: z.string().min(1),
  type: queryValue,
  id: queryValue,
  shadow: z.enum(['true', 'false']).optional(),
});

/** client.queryBannedUsers(filter, sort, options) as `?payload=`. */
const queryPayload = loose({
  filter_conditions: filter,
  sort,
  limit: pageNumber,
  offset: pageNumber,
  exclude_expired_bans: optionalBoolean,
});

/** A channel ban names its channel with both `type` and `id`; neither means app-wide. */
function channelOf(type: string | null | undefined, id: string | null | undefined) {
  if (!type && !id) return undefined;
  if (!type || !id) throw chatError.input('type and id must be given together for a channel ban');
  return `${type}:${id}`;
}

export function registerBanRoutes(app: FastifyInstance, services: { bans: BansService }): void {
  const { bans } = services;
  defineRoute(app, {
    method: 'POST',
    url: '/moderation/ban',
    query: noFields,
    body: banBody,
    handler: async ({ body }, request) => {
      const actor = actorOf(request);
      await bans.ban({
        appId: actor.appId,
        actor,
        targetId: body.target_user_id,
        channelCid: channelOf(body.type, body.id),
        reason: body.reason ?? undefined,
        timeoutMinutes: body.timeout ?? undefined,
        shadow: body.shadow === true,
        ipBan: body.ip_ban === true,
        bannedById: body.banned_by_id ?? body.banned_by?.id ?? undefined,
      });
      return {};
    },
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/moderation/ban',
    query: unbanQuery,
    handler: async ({ query }, request) => {
      const actor = actorOf(request);
      await bans.unban({
        appId: actor.appId,
        actor,
        targetId: query.target_user_id,
        channelCid: channelOf(query.type, query.id),
        shadow: query.shadow === 'true',
      });
      return {};
    },
  });
  defineRoute(app, {
    method: 'GET',
    url: '/query_banned_users',
    payload: queryPayload,
    handler: async ({ payload }, request) => bans.queryBannedUsers(actorOf(request), payload),
  });
}
