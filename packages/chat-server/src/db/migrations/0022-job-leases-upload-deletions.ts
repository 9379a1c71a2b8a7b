import type { Kysely } from 'kysely';

// Background jobs that must run on one node at a time (due reminders, upload clean-up) take a lease row here
// (db/job-lease.ts); a node that dies stops renewing it and another takes over once it expires. Upload deletions
// are queued (chat/extensions/uploads/cleanup.ts) so a hard delete never waits on the file store.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.notNull().primaryKey())
    .addColumn('owner', 'text')
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('upload_deletions')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('file_id', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    // A failed deletion (store unreachable) is tried again after this instant.
    .addColumn('not_before', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_deletions_pk', ['app_id', 'file_id'])
    .execute();
  await db.schema
    .createIndex('upload_deletions_not_before')
    .on('upload_deletions')
    .column('not_before')
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('upload_deletions').execute();
  await db.schema.dropTable('job_leases').execute();
}
