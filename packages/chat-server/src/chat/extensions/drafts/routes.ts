import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, queryOf } from '../../../http/params.ts';
import type { DraftsService } from './service.ts';

export function registerDraftRoutes(
  app: FastifyInstance,
  services: { drafts: DraftsService },
): void {
  const { drafts } = services;
  app.post<{ Params: { type: string; id: string } }>('/channels/:type/:id/draft', async (request) =>
    drafts.upsert(actorOf(request), request.params.type, request.params.id, bodyOf(request.body)),
  );
  app.get<{ Params: { type: string; id: string } }>(
    '/channels/:type/:id/draft',
    async (request) => {
      const query = queryOf(request.query);
      return drafts.get(
        actorOf(request),
        request.params.type,
        request.params.id,
        query.parent_id || undefined,
        query.user_id,
      );
    },
  );
  app.delete<{ Params: { type: string; id: string } }>(
    '/channels/:type/:id/draft',
    async (request) => {
      const query = queryOf(request.query);
      return drafts.remove(
        actorOf(request),
        request.params.type,
        request.params.id,
        query.parent_id || undefined,
        query.user_id,
      );
    },
  );
  app.post('/drafts/query', async (request) =>
    drafts.query(actorOf(request), bodyOf(request.body)),
  );
}
