import type { FastifyInstance } from 'fastify';
import { queryOf, stringParam } from '../../http/params.ts';
import type { ChatServices } from '../services.ts';

export function registerLinkPreviewRoutes(app: FastifyInstance, services: ChatServices): void {
  // client.enrichURL(url) spreads the whole answer into the composer's link preview.
  app.get('/og', async (request) =>
    services.linkPreviews.preview(stringParam(queryOf(request.query).url, 'url')),
  );
}
