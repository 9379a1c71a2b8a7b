import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, queryOf } from '../../../http/params.ts';
import { boundedInt, PAGE_BOUNDS } from '../query/bounds.ts';
import type { ReactionsService } from './service.ts';

export function registerReactionRoutes(
  app: FastifyInstance,
  services: { reactions: ReactionsService },
): void {
  const { reactions } = services;
  app.post<{ Params: { id: string } }>('/messages/:id/reaction', async (request) =>
    reactions.send(actorOf(request), request.params.id, bodyOf(request.body)),
  );
  app.delete<{ Params: { id: string; type: string } }>(
    '/messages/:id/reaction/:type',
    async (request) =>
      reactions.remove(
        actorOf(request),
        request.params.id,
        request.params.type,
        queryOf(request.query).user_id,
      ),
  );
  app.get<{ Params: { id: string } }>('/messages/:id/reactions', async (request) => {
    const query = queryOf(request.query);
    return reactions.list(
      actorOf(request),
      request.params.id,
      // Stream's caps for listing reactions.
      boundedInt(query.limit, 'limit', { min: 0, max: 300, fallback: 10 }),
      boundedInt(query.offset, 'offset', { min: 0, max: PAGE_BOUNDS.maxOffset, fallback: 0 }),
    );
  });
  app.post<{ Params: { id: string } }>('/messages/:id/reactions', async (request) =>
    reactions.query(actorOf(request), request.params.id, bodyOf(request.body)),
  );
}
