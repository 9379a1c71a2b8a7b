import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, queryOf } from '../../../http/params.ts';
import type { ReadsService } from './service.ts';

interface ChannelParams {
  type: string;
  id: string;
}

export function registerReadRoutes(app: FastifyInstance, services: { reads: ReadsService }): void {
  const { reads } = services;
  app.post<{ Params: ChannelParams }>('/channels/:type/:id/read', async (request) =>
    reads.markRead(actorOf(request), request.params.type, request.params.id, bodyOf(request.body)),
  );
  app.post<{ Params: ChannelParams }>('/channels/:type/:id/unread', async (request) => {
    await reads.markUnread(
      actorOf(request),
      request.params.type,
      request.params.id,
      bodyOf(request.body),
    );
    return {};
  });
  app.post('/channels/read', async (request) => {
    await reads.markAllRead(actorOf(request), bodyOf(request.body));
    return {};
  });
  app.get('/unread', async (request) =>
    reads.unreadCounts(actorOf(request), queryOf(request.query).user_id),
  );
}
