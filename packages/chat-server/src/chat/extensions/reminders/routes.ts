import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { actorOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import {
  cursor,
  filter,
  idParams,
  loose,
  noFields,
  optionalString,
  pageNumber,
  queryValue,
  sort,
} from '../../../http/schemas.ts';
import type { RemindersService } from './service.ts';

/** client.createReminder / updateReminder: `{remind_at?: ISO date | null, user_id?}`. */
const reminderBody = loose({
  remind_at: z.union([z.string(), z.number()]).nullish(),
  user_id: optionalString,
});

/** client.queryReminders({filter, sort, limit, next | prev}). */
const queryBody = loose({
  filter,
  sort,
  limit: pageNumber,
  next: cursor,
  prev: cursor,
  user_id: optionalString,
});

export function registerReminderRoutes(
  app: FastifyInstance,
  services: { reminders: RemindersService },
): void {
  const { reminders } = services;
  defineRoute(app, {
    method: 'POST',
    url: '/messages/:id/reminders',
    params: idParams,
    query: noFields,
    body: reminderBody,
    handler: async ({ params, body }, request) =>
      reminders.create(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: '/messages/:id/reminders',
    params: idParams,
    query: noFields,
    body: reminderBody,
    handler: async ({ params, body }, request) =>
      reminders.update(actorOf(request), params.id, body),
  });
  defineRoute(app, {
    method: 'DELETE',
    url: '/messages/:id/reminders',
    params: idParams,
    query: loose({ user_id: queryValue }),
    handler: async ({ params, query }, request) =>
      reminders.remove(actorOf(request), params.id, query.user_id),
  });
  defineRoute(app, {
    method: 'POST',
    url: '/reminders/query',
    query: noFields,
    body: queryBody,
    handler: async ({ body }, request) => reminders.query(actorOf(request), body),
  });
}
