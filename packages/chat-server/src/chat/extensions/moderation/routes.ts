import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf, queryJson } from '../../../http/params.ts';
import type { ModerationService } from './service.ts';

export function registerModerationRoutes(
  app: FastifyInstance,
  services: { moderation: ModerationService },
): void {
  const { moderation } = services;
  app.post('/users/block', async (request) =>
    moderation.block(actorOf(request), bodyOf(request.body)),
  );
  app.post('/users/unblock', async (request) =>
    moderation.unblock(actorOf(request), bodyOf(request.body)),
  );
  app.get('/users/block', async (request) =>
    moderation.blocks(actorOf(request), queryJson(request.query)),
  );
  app.post('/moderation/flag', async (request) =>
    moderation.flag(actorOf(request), bodyOf(request.body)),
  );
}
