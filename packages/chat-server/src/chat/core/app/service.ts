import type { AppConfig } from '../../../config.ts';
import type { JsonObject } from '../json.ts';
import type { AppContext } from './context.ts';
import { createGuest } from './guest.ts';
import { appSettings, updateSettings, uploadConfigs } from './settings.ts';
import type { UploadConfig } from './upload-config.ts';

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

/** Assembles the app service from settings.ts and guest.ts. */
export function createAppService(context: AppContext): AppService {
  return {
    uploadConfigs: (app) => uploadConfigs(context, app),
    update: (app, body) => updateSettings(context, app, body),
    settings: (app) => appSettings(context, app),
    guest: (app, body) => createGuest(context, app, body),
  };
}
