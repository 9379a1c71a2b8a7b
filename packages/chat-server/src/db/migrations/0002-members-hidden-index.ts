import type { Kysely } from 'kysely';

// A send un-hides the channel for members who hid it; this index makes that update touch only hidden rows instead
// of scanning every member of a large channel.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('members_hidden_idx')
    .on('members')
    .columns(['app_id', 'cid', 'hidden'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('members_hidden_idx').execute();
}
