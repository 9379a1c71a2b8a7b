import type { Kysely } from 'kysely';

// Campaigns and segments (chat/extensions/campaigns). Same portable types as 0001: ISO text timestamps, 0/1
// integers for booleans, JSON documents as text.
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('segments')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('description', 'text')
    .addColumn('filter', 'text')
    .addColumn('all_users', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('all_sender_channels', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('segments_pk', ['app_id', 'id'])
    .execute();
  await db.schema
    .createTable('segment_targets')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('segment_id', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('segment_targets_pk', ['app_id', 'segment_id', 'target_id'])
    .execute();
  await db.schema
    .createTable('campaigns')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    // The campaign as created or last updated (Stream's CampaignData fields), JSON.
    .addColumn('data', 'text', (c) => c.notNull())
    // draft → scheduled → in_progress → completed | stopped.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('scheduled_for', 'text')
    .addColumn('stop_at', 'text')
    // 1 once every target has a delivery row, so a resumed run does not enumerate them again.
    .addColumn('targets_ready', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_targets', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_messages_sent', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_users_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_channels_created', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stats_started_at', 'text')
    .addColumn('stats_completed_at', 'text')
    // The node driving the campaign and until when: only one node sends at a time, another takes over on expiry.
    .addColumn('lease_owner', 'text')
    .addColumn('lease_expires', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaigns_pk', ['app_id', 'id'])
    .execute();
  await db.schema.createIndex('campaigns_status').on('campaigns').columns(['status']).execute();
  await db.schema
    .createTable('campaign_deliveries')
    .addColumn('app_id', 'text', (c) => c.notNull())
    .addColumn('campaign_id', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull())
    // pending → sent | failed; the primary key is what makes a target receive the campaign at most once.
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message_id', 'text')
    .addColumn('cid', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('campaign_deliveries_pk', ['app_id', 'campaign_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('campaign_deliveries_status')
    .on('campaign_deliveries')
    .columns(['app_id', 'campaign_id', 'status', 'user_id'])
    .execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['campaign_deliveries', 'campaigns', 'segment_targets', 'segments'])
    await db.schema.dropTable(table).execute();
}
