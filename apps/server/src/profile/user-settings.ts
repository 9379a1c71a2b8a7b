import type { UserSettings } from '@daohuu/domain';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';

export const DEFAULT_USER_SETTINGS: UserSettings = { announceBreakthrough: false };

/** A cultivator's settings, the defaults for those never saved. */
export async function readUserSettings(
  db: Kysely<Database>,
  userId: string,
): Promise<UserSettings> {
  const row = await db
    .selectFrom('user_settings')
    .select('announceBreakthrough')
    .where('userId', '=', userId)
    .executeTakeFirst();
  return row ? { announceBreakthrough: row.announceBreakthrough === 1 } : DEFAULT_USER_SETTINGS;
}

export async function writeUserSettings(
  db: Kysely<Database>,
  userId: string,
  settings: UserSettings,
): Promise<UserSettings> {
  const row = {
    userId,
    announceBreakthrough: settings.announceBreakthrough ? 1 : 0,
    updatedAt: new Date().toISOString(),
  };
  await db
    .insertInto('user_settings')
    .values(row)
    .onConflict((oc) =>
      oc.column('userId').doUpdateSet({
        announceBreakthrough: row.announceBreakthrough,
        updatedAt: row.updatedAt,
      }),
    )
    .execute();
  return settings;
}
