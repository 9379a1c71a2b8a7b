import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../http/context.ts';
import { bodyOf } from '../../http/params.ts';
import type { ChatServices } from '../services.ts';

export function registerLocationRoutes(app: FastifyInstance, services: ChatServices): void {
  const { locations } = services;
  app.get('/users/live_locations', async (request) => locations.active(actorOf(request)));
  app.put('/users/live_locations', async (request) =>
    locations.update(actorOf(request), bodyOf(request.body)),
  );
}
