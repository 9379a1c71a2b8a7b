import type { AppConfig } from './config.ts';
import type { Db } from './db/schema.ts';

/** The configured apps, looked up by API key on every request and handshake. */
export interface AppRegistry {
  byKey(apiKey: string): AppConfig | undefined;
  all(): AppConfig[];
}

export function createAppRegistry(apps: AppConfig[]): AppRegistry {
  const byKey = new Map(apps.map((app) => [app.key, app]));
  return { byKey: (key) => byKey.get(key), all: () => [...apps] };
}

/**
 * Applies what PATCH /app stored over the configuration: `disable_auth_checks` set server-side survives restarts.
 * Answers the apps that run with auth checks disabled, for the start-up warning.
 */
export async function applyStoredSettings(db: Db, apps: AppConfig[]): Promise<AppConfig[]> {
  for (const app of apps) {
    const row = await db
      .selectFrom('apps')
      .select('settings')
      .where('id', '=', app.id)
      .executeTakeFirst();
    let stored: unknown;
    try {
      stored = JSON.parse(row?.settings ?? '{}');
    } catch {
      stored = {};
    }
    const flag = (stored as { disable_auth_checks?: unknown } | null)?.disable_auth_checks;
    if (typeof flag === 'boolean') app.disableAuthChecks = flag;
  }
  return apps.filter((app) => app.disableAuthChecks);
}

/** Makes sure every configured app has its row (the app_id foreign key target). */
export async function upsertApps(db: Db, apps: AppConfig[], now: string): Promise<void> {
  for (const app of apps) {
    await db
      .insertInto('apps')
      .values({
        id: app.id,
        api_key: app.key,
        name: app.name,
        settings: '{}',
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) =>
        oc.column('id').doUpdateSet({ api_key: app.key, name: app.name, updated_at: now }),
      )
      .execute();
  }
}
