import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, queryJson } from '../../../http/params.ts';
import type { ThreadsService } from './service.ts';

export function registerThreadRoutes(
  app: FastifyInstance,
  services: { threads: ThreadsService },
): void {
  const { threads } = services;
  app.post('/threads', async (request) => threads.query(actorOf(request), bodyOf(request.body)));
  app.get<{ Params: { id: string } }>('/threads/:id', async (request) =>
    threads.get(actorOf(request), request.params.id, queryJson(request.query)),
  );
  app.patch<{ Params: { id: string } }>('/threads/:id', async (request) =>
    threads.partialUpdate(actorOf(request), request.params.id, bodyOf(request.body)),
  );
}
