import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { payloadOf } from '../../../http/params.ts';
import type { SearchService } from './service.ts';

export function registerSearchRoutes(
  app: FastifyInstance,
  services: { search: SearchService },
): void {
  app.get('/search', async (request) =>
    services.search.search(actorOf(request), payloadOf(request.query)),
  );
}
