import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { idParams, noFields } from '../../../http/schemas.ts';
import type { PendingMessagesService } from './service.ts';

/** client.commitMessage(id): `POST /messages/{id}/commit` with no body. */
export function registerPendingMessageRoutes(
  app: FastifyInstance,
  services: { pendingMessages: PendingMessagesService },
): void {
  defineRoute(app, {
    method: 'POST',
    url: '/messages/:id/commit',
    params: idParams,
    query: noFields,
    body: noFields,
    handler: async ({ params }, request) =>
      services.pendingMessages.commit(actorOf(request), params.id),
  });
}
