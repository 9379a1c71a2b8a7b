import { randomUUID } from 'node:crypto';
import { signUserToken } from '../../../auth/tokens.ts';
import type { AppConfig } from '../../../config.ts';
import { chatError } from '../../../errors.ts';
import { BUILTIN_CHANNEL_TYPES } from '../channel-types.ts';
import { toConfigResponse } from '../channels/serialize.ts';
import type { ChatDeps } from '../deps.ts';
import { isPlainObject, parseObject, type JsonObject } from '../json.ts';
import { NO_UPLOAD_RESTRICTION, parseUploadConfig, type UploadConfig } from './upload-config.ts';
import { USER_ID_PATTERN, type UsersService } from '../users/service.ts';

export interface AppService {
  /** GET /app: the client reads the upload configs before the first upload (and caches a failure forever). */
  settings(app: AppConfig): Promise<{ app: JsonObject }>;
  /** POST /guest: creates a guest user under a free id and returns an expiring token for it. */
  guest(app: AppConfig, body: JsonObject): Promise<{ access_token: string; user: JsonObject }>;
  /** PATCH /app (server side only): stores the upload configs for this app. */
  update(app: AppConfig, body: JsonObject): Promise<void>;
  /** The upload configs in force: stored by PATCH /app, else the app's config, else no restriction. */
  uploadConfigs(app: AppConfig): Promise<{ image: UploadConfig; file: UploadConfig }>;
}

const UPLOAD_KEYS = ['image_upload_config', 'file_upload_config'] as const;

export function createAppService(deps: ChatDeps, users: UsersService): AppService {
  async function storedSettings(appId: string): Promise<JsonObject> {
    const row = await deps.db
      .selectFrom('apps')
      .select('settings')
      .where('id', '=', appId)
      .executeTakeFirst();
    return parseObject(row?.settings);
  }

  async function uploadConfigs(app: AppConfig) {
    const stored = await storedSettings(app.id);
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

  function insertGuest(appId: string, id: string): Promise<void> {
    const now = deps.clock.now();
    return users.repo.insert({
      app_id: appId,
      id,
      role: 'guest',
      name: null,
      name_search: null,
      image: null,
      language: '',
      teams: '[]',
      custom: '{}',
      invisible: 0,
      banned: 0,
      created_at: now,
      updated_at: now,
      last_active: null,
    });
  }

  /**
   * Creates the guest's user row under `wanted`, or under a fresh random id when anyone (guest or not) already has
   * it: a visitor must not take over another session's id. The insert itself decides, so two visitors racing for
   * one id cannot both win.
   */
  async function claimGuestId(appId: string, wanted: string): Promise<string> {
    try {
      await insertGuest(appId, wanted);
      return wanted;
    } catch (error) {
      if (!(await users.repo.get(appId, wanted))) throw error;
    }
    const fresh = `guest-${randomUUID()}`;
    await insertGuest(appId, fresh);
    return fresh;
  }

  return {
    uploadConfigs,

    async update(app, body) {
      const patch: JsonObject = {};
      for (const key of UPLOAD_KEYS)
        if (body[key] !== undefined) patch[key] = parseUploadConfig(body[key], key);
      const settings = { ...(await storedSettings(app.id)), ...patch };
      await deps.writes.run((trx) =>
        trx
          .updateTable('apps')
          .set({ settings: JSON.stringify(settings), updated_at: deps.clock.now() })
          .where('id', '=', app.id)
          .execute(),
      );
    },

    async settings(app) {
      const uploads = await uploadConfigs(app);
      const channelConfigs: JsonObject = {};
      for (const [name, type] of Object.entries(BUILTIN_CHANNEL_TYPES))
        channelConfigs[name] = toConfigResponse(type);
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
    },

    async guest(app, body) {
      if (!app.guests.enabled) throw chatError.notAllowed('guest users are disabled for this app');
      const input = body.user;
      if (!isPlainObject(input)) throw chatError.input('user is required');
      const wanted = typeof input.id === 'string' && input.id ? input.id : `guest-${randomUUID()}`;
      if (!USER_ID_PATTERN.test(wanted))
        throw chatError.input('user id may only contain letters, numbers, "@", "_" and "-"');
      const id = await claimGuestId(app.id, wanted);
      const { role: _role, ...details } = input;
      const row = await users.upsertOnConnect(app.id, id, { ...details, id }, 'guest');
      const exp = Math.floor(Date.now() / 1000) + app.guests.tokenTtlSeconds;
      return { access_token: signUserToken(app.secret, id, exp), user: users.toResponse(row) };
    },
  };
}
