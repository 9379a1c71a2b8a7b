import type { FastifyInstance } from 'fastify';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { loose, noFields, optionalString } from '../../../http/schemas.ts';
import type { LocationsService } from './service.ts';

/**
 * client.updateLocation: `{message_id, latitude?, longitude?, end_at?, created_by_device_id?, user_id?}`. The
 * coordinates' types and ranges are checked by the service, which names them as Stream does (shared_location.*).
 */
const updateBody = loose({
  message_id: optionalString,
  created_by_device_id: optionalString,
  user_id: optionalString,
});

export function registerLocationRoutes(
  app: FastifyInstance,
  services: { locations: LocationsService },
): void {
  const { locations } = services;
  defineRoute(app, {
    method: 'GET',
    url: '/users/live_locations',
    query: noFields,
    handler: async (_input, request) => locations.active(actorOf(request)),
  });
  defineRoute(app, {
    method: 'PUT',
    url: '/users/live_locations',
    query: noFields,
    body: updateBody,
    handler: async ({ body }, request) => locations.update(actorOf(request), body),
  });
}
