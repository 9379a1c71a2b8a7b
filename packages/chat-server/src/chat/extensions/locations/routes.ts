import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { bodyOf } from '../../../http/params.ts';
import type { LocationsService } from './service.ts';

export function registerLocationRoutes(
  app: FastifyInstance,
  services: { locations: LocationsService },
): void {
  const { locations } = services;
  app.get('/users/live_locations', async (request) => locations.active(actorOf(request)));
  app.put('/users/live_locations', async (request) =>
    locations.update(actorOf(request), bodyOf(request.body)),
  );
}
