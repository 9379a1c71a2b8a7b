import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf } from '../../../http/params.ts';
import type { MutesService } from './service.ts';

export function registerMuteRoutes(app: FastifyInstance, services: { mutes: MutesService }): void {
  const { mutes } = services;
  app.post('/moderation/mute', async (request) =>
    mutes.muteUser(actorOf(request), bodyOf(request.body)),
  );
  app.post('/moderation/unmute', async (request) =>
    mutes.unmuteUser(actorOf(request), bodyOf(request.body)),
  );
  app.post('/moderation/mute/channel', async (request) =>
    mutes.muteChannel(actorOf(request), bodyOf(request.body)),
  );
  app.post('/moderation/unmute/channel', async (request) =>
    mutes.unmuteChannel(actorOf(request), bodyOf(request.body)),
  );
}
