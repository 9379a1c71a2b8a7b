import type { AppConfig } from '../../../config.ts';
import { toConfigResponse } from '../channels/serialize.ts';
import { parseObject, type JsonObject } from '../json.ts';
import type { AppContext } from './context.ts';
import { NO_UPLOAD_RESTRICTION, parseUploadConfig, type UploadConfig } from './upload-config.ts';

const UPLOAD_KEYS = ['image_upload_config', 'file_upload_config'] as const;

async function storedSettings({ deps }: AppContext, appId: string): Promise<JsonObject> {
  const row = await deps.db
    .selectFrom('apps')
    .select('settings')
    .where('id', '=', appId)
    .executeTakeFirst();
  return parseObject(row?.settings);
}

export async function uploadConfigs(
  context: AppContext,
  app: AppConfig,
): Promise<{ image: UploadConfig; file: UploadConfig }> {
  const stored = await storedSettings(context, app.id);
  const pick = (key: (typeof UPLOAD_KEYS)[number], fallback: UploadConfig | undefined) => {
    const value = stored[key];
    return value === undefined
      ? (fallback ?? NO_UPLOAD_RESTRICTION)
      : parseUploadConfig(value, key);
  };
  return {
    image: pick('image_upload_config', app.imageUploadConfig),
    file: pick('file_upload_config', app.fileUploadConfig),
  };
}

export async function updateSettings(
  context: AppContext,
  app: AppConfig,
  body: JsonObject,
): Promise<void> {
  const { deps } = context;
  const patch: JsonObject = {};
  for (const key of UPLOAD_KEYS)
    if (body[key] !== undefined) patch[key] = parseUploadConfig(body[key], key);
  if (typeof body.disable_auth_checks === 'boolean')
    patch.disable_auth_checks = body.disable_auth_checks;
  const settings = { ...(await storedSettings(context, app.id)), ...patch };
  await deps.writes.run((trx) =>
    trx
      .updateTable('apps')
      .set({ settings: JSON.stringify(settings), updated_at: deps.clock.now() })
      .where('id', '=', app.id)
      .execute(),
  );
  if (typeof patch.disable_auth_checks === 'boolean')
    switchAuthChecks(context, app, patch.disable_auth_checks);
}

/**
 * Takes effect on this node at once (the app object is what every authentication reads); other nodes of a cluster
 * read the stored value when they start.
 */
function switchAuthChecks({ deps }: AppContext, app: AppConfig, disabled: boolean): void {
  app.disableAuthChecks = disabled;
  if (disabled)
    deps.log.warn(
      { app: app.id },
      `AUTH CHECKS ARE DISABLED for app ${app.id}: unsigned development tokens are accepted. Never in production.`,
    );
}

export async function appSettings(
  context: AppContext,
  app: AppConfig,
): Promise<{ app: JsonObject }> {
  const uploads = await uploadConfigs(context, app);
  const channelConfigs: JsonObject = {};
  for (const type of context.deps.channelTypes.list(app.id))
    channelConfigs[type.name] = toConfigResponse(type);
  return {
    app: {
      name: app.name,
      disable_auth_checks: app.disableAuthChecks,
      disable_permissions_checks: false,
      file_upload_config: uploads.file,
      image_upload_config: uploads.image,
      channel_configs: channelConfigs,
      permission_version: 'v2',
      suspended: false,
    },
  };
}
