import type { Kysely } from 'kysely';

/*
 * Who last truncated a channel (Stream's `truncated_by`), when a user did. And a soft delete now truncates the
 * channel at that moment unless told to keep its history (chat/core/channels/delete.ts): channels deleted before
 * were re-created empty, so they are marked as deleted with their history, and creating them again stays empty.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('channels').addColumn('truncated_by_id', 'text').execute();
  await db
    .updateTable('channels')
    .set((eb) => ({ truncated_at: eb.ref('deleted_at') }))
    .where('deleted_at', 'is not', null)
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('channels').dropColumn('truncated_by_id').execute();
}
