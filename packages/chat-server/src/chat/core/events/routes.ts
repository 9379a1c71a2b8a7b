import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { channelParams, idParams, loose, noFields } from '../../../http/schemas.ts';
import type { ChannelEventsService } from './service.ts';

/** channel.sendEvent / keystroke / stopTyping: `{event: {type, parent_id?, …custom}}`. */
const eventBody = loose({ event: loose({ type: z.string() }) });

export function registerEventRoutes(
  app: FastifyInstance,
  services: { channelEvents: ChannelEventsService },
): void {
  defineRoute(app, {
    method: 'POST',
    url: '/channels/:type/:id/event',
    params: channelParams,
    query: noFields,
    body: eventBody,
    handler: async ({ params, body }, request) =>
      services.channelEvents.send(actorOf(request), params.type, params.id, body),
  });

  defineRoute(app, {
    method: 'POST',
    url: '/users/:id/event',
    params: idParams,
    query: noFields,
    body: eventBody,
    handler: async ({ params, body }, request) =>
      services.channelEvents.sendToUser(actorOf(request), params.id, body),
  });
}
