import { requireServerSide } from '../access/access.ts';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { contextOf } from '../../../http/context.ts';
import { defineRoute } from '../../../http/route.ts';
import { jsonObject, loose, noFields } from '../../../http/schemas.ts';
import type { AppService } from './service.ts';

/**
 * client.updateAppSettings: the upload configs (their own rules are in upload-config.ts) and
 * `disable_auth_checks`, a development switch; everything else is ignored, except turning on multi-tenant mode,
 * which is refused: an app would believe its teams were kept apart when nothing here does it.
 */
const appSettingsBody = loose({
  file_upload_config: jsonObject.optional(),
  image_upload_config: jsonObject.optional(),
  disable_auth_checks: z.boolean().optional(),
  multi_tenant_enabled: z
    .boolean()
    .refine((enabled) => !enabled, 'multi-tenant mode is not supported by this server')
    .optional(),
});

/** client.setGuestUser({id, name, …}): the user's custom fields pass through. */
const guestBody = loose({ user: loose({ id: z.string().optional() }).optional() });

export function registerAppRoutes(app: FastifyInstance, services: { app: AppService }): void {
  defineRoute(app, {
    method: 'GET',
    url: '/app',
    query: noFields,
    handler: async (_input, request) => services.app.settings(contextOf(request).app),
  });
  defineRoute(app, {
    method: 'PATCH',
    url: '/app',
    query: noFields,
    body: appSettingsBody,
    handler: async ({ body }, request) => {
      const { app: config, actor } = contextOf(request);
      requireServerSide(actor, 'only server-side calls can update app settings');
      await services.app.update(config, body);
      return {};
    },
  });
  defineRoute(app, {
    method: 'POST',
    url: '/guest',
    query: noFields,
    body: guestBody,
    handler: async ({ body }, request) => services.app.guest(contextOf(request).app, body),
  });
  // stream-chat's warm-up ping.
  defineRoute(app, { method: 'GET', url: '/hi', query: noFields, handler: async () => ({}) });
}
