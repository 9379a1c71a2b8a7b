import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { loose, noFields, queryNumeral, queryValue } from '../../../http/schemas.ts';
import { PRODUCT_NOTIFICATION_KINDS, type NotificationsService } from './service.ts';

/** Our own endpoints, not Stream's: the `/daohuu/` prefix keeps them clear of every Stream path. */
export const NOTIFICATIONS_PATH = '/daohuu/notifications';

/** `?limit=1..100&before=<notification id>&user_id=<for server-side calls>`. */
const listQuery = loose({
  limit: queryNumeral.refine(
    (value) => value === undefined || value === '' || (Number(value) >= 1 && Number(value) <= 100),
    { error: 'must be between 1 and 100' },
  ),
  before: queryValue,
  user_id: queryValue,
});

/** `{ids: [...]}` marks those read, `{all: true}` every one. */
const readBody = loose({
  ids: z.array(z.string().min(1).max(64)).max(100).optional(),
  all: z.boolean().optional(),
  user_id: z.string().optional(),
});

/** `{user_id, kind, data?}`: a few short strings the panel shows (the realm's name), nothing more. */
const createBody = z.object({
  user_id: z.string().min(1).max(255),
  kind: z.enum(PRODUCT_NOTIFICATION_KINDS),
  data: z
    .record(z.string().min(1).max(32), z.string().max(200))
    .refine((data) => Object.keys(data).length <= 8, { error: 'must have at most 8 fields' })
    .optional(),
});

export function registerNotificationRoutes(
  app: FastifyInstance,
  services: { notifications: NotificationsService },
): void {
  const { notifications } = services;
  defineRoute(app, {
    method: 'GET',
    url: NOTIFICATIONS_PATH,
    query: listQuery,
    handler: async ({ query }, request) =>
      notifications.list(actorOf(request), {
        limit: query.limit ? Number(query.limit) : undefined,
        before: query.before || undefined,
        user_id: query.user_id || undefined,
      }),
  });
  defineRoute(app, {
    method: 'POST',
    url: `${NOTIFICATIONS_PATH}/read`,
    query: noFields,
    body: readBody,
    handler: async ({ body }, request) => notifications.markRead(actorOf(request), body),
  });
  defineRoute(app, {
    method: 'POST',
    url: NOTIFICATIONS_PATH,
    query: noFields,
    body: createBody,
    handler: async ({ body }, request) => notifications.create(actorOf(request), body),
  });
}
