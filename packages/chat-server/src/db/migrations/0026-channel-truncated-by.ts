import type { Kysely } from 'kysely';

/* Who last truncated a channel (Stream's `truncated_by`), when a user did. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('channels').addColumn('truncated_by_id', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('truncated_by_id').execute();
}
