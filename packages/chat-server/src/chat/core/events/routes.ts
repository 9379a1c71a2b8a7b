import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf } from '../../../http/params.ts';
import type { ChannelEventsService } from './service.ts';

export function registerEventRoutes(
  app: FastifyInstance,
  services: { channelEvents: ChannelEventsService },
): void {
  app.post<{ Params: { type: string; id: string } }>('/channels/:type/:id/event', async (request) =>
    services.channelEvents.send(
      actorOf(request),
      request.params.type,
      request.params.id,
      bodyOf(request.body),
    ),
  );
}
