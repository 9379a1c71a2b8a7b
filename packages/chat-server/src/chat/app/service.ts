import { randomUUID } from 'node:crypto';
import { signUserToken } from '../../auth/tokens.ts';
import type { AppConfig } from '../../config.ts';
import { chatError } from '../../errors.ts';
import { BUILTIN_CHANNEL_TYPES } from '../channel-types.ts';
import { toConfigResponse } from '../channels/serialize.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import { USER_ID_PATTERN, type UsersService } from '../users/service.ts';

export interface AppService {
  /** GET /app: the client reads the upload configs before the first upload (and caches a failure forever). */
  settings(app: AppConfig): Promise<{ app: JsonObject }>;
  /** POST /guest: creates (or reuses) a guest user and returns a token for it. */
  guest(app: AppConfig, body: JsonObject): Promise<{ access_token: string; user: JsonObject }>;
}

const NO_RESTRICTION = {
  allowed_file_extensions: [],
  blocked_file_extensions: [],
  allowed_mime_types: [],
  blocked_mime_types: [],
  size_limit: 0,
};

export function createAppService(users: UsersService): AppService {
  return {
    async settings(app) {
      const channelConfigs: JsonObject = {};
      for (const [name, type] of Object.entries(BUILTIN_CHANNEL_TYPES))
        channelConfigs[name] = toConfigResponse(type);
      return {
        app: {
          name: app.name,
          disable_auth_checks: app.disableAuthChecks,
          disable_permissions_checks: false,
          file_upload_config: NO_RESTRICTION,
          image_upload_config: NO_RESTRICTION,
          channel_configs: channelConfigs,
          permission_version: 'v2',
          suspended: false,
        },
      };
    },

    async guest(app, body) {
      const input = body.user;
      if (!isPlainObject(input)) throw chatError.input('user is required');
      let id = typeof input.id === 'string' && input.id ? input.id : `guest-${randomUUID()}`;
      if (!USER_ID_PATTERN.test(id))
        throw chatError.input('user id may only contain letters, numbers, "@", "_" and "-"');
      const existing = await users.repo.get(app.id, id);
      // A guest never takes over a registered user's id.
      if (existing && existing.role !== 'guest') id = `guest-${randomUUID()}`;
      const { role: _role, ...details } = input;
      const row = await users.upsertOnConnect(app.id, id, { ...details, id }, 'guest');
      return { access_token: signUserToken(app.secret, id), user: users.toResponse(row) };
    },
  };
}
