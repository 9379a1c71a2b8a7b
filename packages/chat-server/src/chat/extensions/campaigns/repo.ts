import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { Db } from '../../../db/schema.ts';

// Type aliases (not interfaces): `withTables` needs an index-compatible record type.
export type SegmentsTable = {
  app_id: string;
  id: string;
  type: string;
  name: string | null;
  description: string | null;
  filter: string | null;
  all_users: number;
  all_sender_channels: number;
  created_at: string;
  updated_at: string;
};

export type SegmentTargetsTable = {
  app_id: string;
  segment_id: string;
  target_id: string;
  created_at: string;
};

export type CampaignsTable = {
  app_id: string;
  id: string;
  data: string;
  status: string;
  scheduled_for: string | null;
  stop_at: string | null;
  targets_ready: number;
  stats_targets: number;
  stats_messages_sent: number;
  stats_users_failed: number;
  stats_channels_created: number;
  stats_started_at: string | null;
  stats_completed_at: string | null;
  lease_owner: string | null;
  lease_expires: string | null;
  created_at: string;
  updated_at: string;
};

export type DeliveriesTable = {
  app_id: string;
  campaign_id: string;
  user_id: string;
  status: string;
  message_id: string | null;
  cid: string | null;
  updated_at: string;
};

/** The tables of this module, added to the shared schema type locally (the module owns migration 0015). */
export type CampaignTables = {
  segments: SegmentsTable;
  segment_targets: SegmentTargetsTable;
  campaigns: CampaignsTable;
  campaign_deliveries: DeliveriesTable;
};

export type SegmentRow = Selectable<SegmentsTable>;
export type CampaignRow = Selectable<CampaignsTable>;
export type DeliveryRow = Selectable<DeliveriesTable>;
export type CampaignsDb = Kysely<CampaignTables>;

/** The module's tables on the shared connection. */
export function campaignTables(db: Db): CampaignsDb {
  return db.withTables<CampaignTables>() as unknown as CampaignsDb;
}

/** Statuses in which a campaign's fields may no longer change and it cannot be started again. */
export type CampaignStatus = 'draft' | 'scheduled' | 'in_progress' | 'completed' | 'stopped';

export interface StatsDelta {
  sent: number;
  failed: number;
  channelsCreated: number;
}

/** Campaign rows: the counters move by deltas so a driver never overwrites another's numbers. */
export function createCampaignRowsRepo(db: CampaignsDb) {
  return {
    get: (appId: string, id: string) =>
      db
        .selectFrom('campaigns')
        .selectAll()
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst(),
    async insert(row: CampaignRow): Promise<void> {
      await db.insertInto('campaigns').values(row).execute();
    },
    /** Applies `patch` only while the campaign is in one of `from`; true when it was. */
    async transition(
      appId: string,
      id: string,
      from: CampaignStatus[],
      patch: Partial<CampaignRow>,
    ): Promise<boolean> {
      const result = await db
        .updateTable('campaigns')
        .set(patch)
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .where('status', 'in', from)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async remove(appId: string, id: string): Promise<boolean> {
      await db
        .deleteFrom('campaign_deliveries')
        .where('app_id', '=', appId)
        .where('campaign_id', '=', id)
        .execute();
      const result = await db
        .deleteFrom('campaigns')
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    query: (
      appId: string,
      where: RawBuilder<boolean>,
      offset: number,
      limit: number,
      descending: boolean,
    ) =>
      db
        .selectFrom('campaigns')
        .selectAll()
        .where('app_id', '=', appId)
        .where(() => where)
        .orderBy('created_at', descending ? 'desc' : 'asc')
        .orderBy('id')
        .offset(offset)
        .limit(limit)
        .execute(),
    async addStats(appId: string, id: string, delta: StatsDelta, now: string): Promise<void> {
      await db
        .updateTable('campaigns')
        .set({
          stats_messages_sent: sql`stats_messages_sent + ${delta.sent}`,
          stats_users_failed: sql`stats_users_failed + ${delta.failed}`,
          stats_channels_created: sql`stats_channels_created + ${delta.channelsCreated}`,
          updated_at: now,
        })
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .execute();
    },
  };
}

export type CampaignRowsRepo = ReturnType<typeof createCampaignRowsRepo>;
