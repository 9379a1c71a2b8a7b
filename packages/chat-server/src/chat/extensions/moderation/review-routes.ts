import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  cursor,
  filter,
  jsonObject,
  loose,
  noFields,
  optionalString,
  pageNumber,
  sort,
} from '../../../http/schemas.ts';
import type { ModerationService } from './service.ts';

/** client.unflagMessage / unflagUser. */
const unflagBody = loose({
  target_message_id: z.string().optional(),
  target_user_id: z.string().optional(),
  user_id: optionalString,
});

/** client.moderation.flag: `{entity_type, entity_id, entity_creator_id, reason, custom?, user_id?}`. */
const flagEntityBody = loose({
  entity_type: z.string(),
  entity_id: z.string(),
  entity_creator_id: optionalString,
  reason: optionalString,
  custom: jsonObject.nullish(),
  user_id: optionalString,
});

/** client.queryMessageFlags(filter_conditions, {limit, offset}) as `?payload=`. */
const messageFlagsPayload = loose({
  filter_conditions: filter,
  limit: pageNumber,
  offset: pageNumber,
});

/** client.moderation.queryReviewQueue(filter, sort, {limit, next, prev}). */
const reviewQueueBody = loose({
  filter,
  sort,
  limit: pageNumber,
  offset: pageNumber,
  next: cursor,
  prev: cursor,
  user_id: optionalString,
});

/** client.moderation.submitAction(action_type, item_id, options). */
const submitActionBody = loose({
  action_type: z.string(),
  item_id: z.string(),
  user_id: optionalString,
});

const nameParams = z.object({ name: z.string().max(64) });
const teamQuery = loose({ team: z.string().optional() });
/** client.createBlockList / updateBlockList. */
const blocklistBody = loose({
  name: z.string().optional(),
  words: z.array(z.string()).max(1000).optional(),
  type: optionalString,
  team: optionalString,
});

export function registerReviewRoutes(
  app: FastifyInstance,
  services: { moderation: ModerationService },
): void {
  const { moderation } = services;
  const { blocklists } = moderation;
  defineRoute(app, {
    method: 'POST',
    url: '/moderation/unflag',
    query: noFields,
    body: unflagBody,
    handler: async ({ body }, request) => moderation.unflag(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/moderation/flags/message',
    payload: messageFlagsPayload,
    handler: async ({ payload }, request) =>
      moderation.queryMessageFlags(actorOf(request), payload),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/api/v2/moderation/flag',
    query: noFields,
    body: flagEntityBody,
    handler: async ({ body }, request) => moderation.flagEntity(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/api/v2/moderation/review_queue',
    query: noFields,
    body: reviewQueueBody,
    handler: async ({ body }, request) => moderation.queryReviewQueue(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/api/v2/moderation/submit_action',
    query: noFields,
    body: submitActionBody,
    handler: async ({ body }, request) => moderation.submitAction(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/blocklists',
    query: noFields,
    body: blocklistBody,
    handler: async ({ body }, request) => blocklists.create(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/blocklists',
    query: teamQuery,
    handler: async (_input, request) => blocklists.list(actorOf(request)),
  });
  defineRoute(app, {
    method: 'GET',
    url: '/blocklists/:name',
    params: nameParams,
    query: teamQuery,
    handler: async ({ params }, request) => blocklists.get(actorOf(request), params.name),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/blocklists/:name',
    params: nameParams,
    query: noFields,
    body: blocklistBody,
    handler: async ({ params, body }, request) =>
      blocklists.update(actorOf(request), params.name, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/blocklists/:name',
    params: nameParams,
    query: teamQuery,
    handler: async ({ params }, request) => blocklists.remove(actorOf(request), params.name),
  });
}
