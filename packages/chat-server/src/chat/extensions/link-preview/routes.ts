import type { FastifyInstance } from 'fastify';
import { chatError } from '../../../errors.ts';
import { actorOf } from '../../../http/context.ts';
import { stringParam } from '../../../http/params.ts';
import { defineRoute } from '../../../http/route.ts';
import { loose, queryValue } from '../../../http/schemas.ts';
import type { LinkPreviewService } from './service.ts';

export function registerLinkPreviewRoutes(
  app: FastifyInstance,
  services: { linkPreviews: LinkPreviewService },
): void {
  // client.enrichURL(url) spreads the whole answer into the composer's link preview.
  defineRoute(app, {
    method: 'GET',
    url: '/og',
    query: loose({ url: queryValue }),
    handler: async ({ query }, request) => {
      const actor = actorOf(request);
      // Only writers compose messages; anonymous readers must not turn the server into a page fetcher.
      if (actor.role === 'anonymous' || (!actor.userId && !actor.isServer))
        throw chatError.notAllowed('anonymous users cannot request link previews');
      // Required only after that check, so an anonymous caller learns nothing from the answer's code.
      return services.linkPreviews.preview(stringParam(query.url, 'url'));
    },
  });
}
