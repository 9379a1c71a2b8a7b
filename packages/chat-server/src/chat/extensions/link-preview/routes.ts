import type { FastifyInstance } from 'fastify';
import { chatError } from '../../../errors.ts';
import { actorOf } from '../../../http/context.ts';
import { queryOf, stringParam } from '../../../http/params.ts';
import type { LinkPreviewService } from './service.ts';

export function registerLinkPreviewRoutes(
  app: FastifyInstance,
  services: { linkPreviews: LinkPreviewService },
): void {
  // client.enrichURL(url) spreads the whole answer into the composer's link preview.
  app.get('/og', async (request) => {
    const actor = actorOf(request);
    // Only writers compose messages; anonymous readers must not turn the server into a page fetcher.
    if (actor.role === 'anonymous' || (!actor.userId && !actor.isServer))
      throw chatError.notAllowed('anonymous users cannot request link previews');
    return services.linkPreviews.preview(stringParam(queryOf(request.query).url, 'url'));
  });
}
