import type { Kysely } from 'kysely';

/*
 * Channel-level settings (chat/core/channel-types/overrides.ts): the settings a channel changes from its type's, as
 * checked JSON, or null for none.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('channels').addColumn('config_overrides', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('config_overrides').execute();
}
