import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  jsonObject,
  jsonQuery,
  loose,
  noFields,
  optionalString,
  queryValue,
} from '../../../http/schemas.ts';
import { registerReviewRoutes } from './review-routes.ts';
import type { ModerationService } from './service.ts';

/** client.blockUser / unBlockUser: `{blocked_user_id, user_id?}`. */
const blockBody = loose({ blocked_user_id: z.string().optional(), user_id: optionalString });

/** client.flagMessage / flagUser: one target, an optional reason and custom data. */
const flagBody = loose({
  target_message_id: z.string().optional(),
  target_user_id: z.string().optional(),
  reason: optionalString,
  custom: jsonObject.nullish(),
  user_id: optionalString,
});

export function registerModerationRoutes(
  app: FastifyInstance,
  services: { moderation: ModerationService },
): void {
  const { moderation } = services;
  defineRoute(app, {
    method: 'POST',
    url: '/users/block',
    query: noFields,
    body: blockBody,
    handler: async ({ body }, request) => moderation.block(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/users/unblock',
    query: noFields,
    body: blockBody,
    handler: async ({ body }, request) => moderation.unblock(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/users/block',
    query: jsonQuery({ user_id: queryValue }),
    handler: async ({ query }, request) => moderation.blocks(actorOf(request), query),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/moderation/flag',
    query: noFields,
    body: flagBody,
    handler: async ({ body }, request) => moderation.flag(actorOf(request), body),
  });
  registerReviewRoutes(app, services);
}
