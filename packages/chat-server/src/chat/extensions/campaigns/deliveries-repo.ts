import { sql } from 'kysely';
import type { CampaignRow, CampaignsDb, DeliveryRow } from './repo.ts';

/** Rows inserted per statement: well under both databases' parameter limits (7 columns each). */
const INSERT_CHUNK = 500;

/** The per-target delivery rows and the lease that lets one node at a time drive a campaign. */
export function createDeliveriesRepo(db: CampaignsDb) {
  return {
    /** Adds pending rows for these targets; a target already there (a resumed run) keeps its row. */
    async addTargets(appId: string, campaignId: string, userIds: string[], now: string) {
      for (let i = 0; i < userIds.length; i += INSERT_CHUNK) {
        const rows = userIds.slice(i, i + INSERT_CHUNK).map((userId) => ({
          app_id: appId,
          campaign_id: campaignId,
          user_id: userId,
          status: 'pending',
          message_id: null,
          cid: null,
          updated_at: now,
        }));
        await db
          .insertInto('campaign_deliveries')
          .values(rows)
          .onConflict((oc) => oc.columns(['app_id', 'campaign_id', 'user_id']).doNothing())
          .execute();
      }
    },
    async countTargets(appId: string, campaignId: string): Promise<number> {
      const row = await db
        .selectFrom('campaign_deliveries')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('app_id', '=', appId)
        .where('campaign_id', '=', campaignId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    pending: (appId: string, campaignId: string, limit: number) =>
      db
        .selectFrom('campaign_deliveries')
        .selectAll()
        .where('app_id', '=', appId)
        .where('campaign_id', '=', campaignId)
        .where('status', '=', 'pending')
        .orderBy('user_id')
        .limit(limit)
        .execute(),
    /** Records the outcome of one target; false when another driver already recorded it (it counts once). */
    async settle(
      row: Pick<DeliveryRow, 'app_id' | 'campaign_id' | 'user_id'>,
      outcome: { status: 'sent' | 'failed'; message_id: string | null; cid: string | null },
      now: string,
    ): Promise<boolean> {
      const result = await db
        .updateTable('campaign_deliveries')
        .set({ ...outcome, updated_at: now })
        .where('app_id', '=', row.app_id)
        .where('campaign_id', '=', row.campaign_id)
        .where('user_id', '=', row.user_id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Sent and failed channel targets (their target is a cid, the only targets holding a colon). */
    async channelCounts(
      appId: string,
      campaignId: string,
    ): Promise<{ sent: number; failed: number }> {
      const rows = await db
        .selectFrom('campaign_deliveries')
        .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
        .where('app_id', '=', appId)
        .where('campaign_id', '=', campaignId)
        .where('user_id', 'like', '%:%')
        .groupBy('status')
        .execute();
      const of = (status: string) => Number(rows.find((r) => r.status === status)?.n ?? 0);
      return { sent: of('sent'), failed: of('failed') };
    },
    /**
     * User targets who have read their campaign message: their channel read state is at or after the message's
     * creation. Channel targets have no single reader and do not count.
     */
    async usersRead(appId: string, campaignId: string): Promise<number> {
      const { rows } = await sql<{ n: number | string }>`
        select count(*) as n
        from campaign_deliveries d
        join messages m on m.app_id = d.app_id and m.id = d.message_id
        join reads r on r.app_id = d.app_id and r.cid = d.cid and r.user_id = d.user_id and r.thread_id = ''
        where d.app_id = ${appId} and d.campaign_id = ${campaignId} and d.status = 'sent'
          and d.user_id not like '%:%' and r.last_read >= m.created_at`.execute(db);
      return Number(rows[0]?.n ?? 0);
    },
    forUser: (appId: string, campaignId: string, userId: string) =>
      db
        .selectFrom('campaign_deliveries')
        .selectAll()
        .where('app_id', '=', appId)
        .where('campaign_id', '=', campaignId)
        .where('user_id', '=', userId)
        .executeTakeFirst(),
    /** Campaigns some node should be driving now whose lease is free or lapsed, across apps. */
    due: (now: string, limit: number) =>
      db
        .selectFrom('campaigns')
        .select(['app_id', 'id'])
        .where((eb) =>
          eb.or([
            eb('status', '=', 'in_progress'),
            eb.and([eb('status', '=', 'scheduled'), eb('scheduled_for', '<=', now)]),
          ]),
        )
        .where((eb) => eb.or([eb('lease_expires', 'is', null), eb('lease_expires', '<', now)]))
        .limit(limit)
        .execute(),
    /**
     * Takes or renews the lease of a campaign still to be driven. Conditional on the lease being free, lapsed or
     * already `owner`'s, so of several nodes trying at once exactly one gets true.
     */
    async lease(
      key: Pick<CampaignRow, 'app_id' | 'id'>,
      owner: string,
      now: string,
      until: string,
    ): Promise<boolean> {
      const result = await db
        .updateTable('campaigns')
        .set({ lease_owner: owner, lease_expires: until })
        .where('app_id', '=', key.app_id)
        .where('id', '=', key.id)
        .where('status', 'in', ['scheduled', 'in_progress'])
        .where((eb) =>
          eb.or([
            eb('lease_expires', 'is', null),
            eb('lease_expires', '<', now),
            eb('lease_owner', '=', owner),
          ]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release(key: Pick<CampaignRow, 'app_id' | 'id'>, owner: string): Promise<void> {
      await db
        .updateTable('campaigns')
        .set({ lease_owner: null, lease_expires: null })
        .where('app_id', '=', key.app_id)
        .where('id', '=', key.id)
        .where('lease_owner', '=', owner)
        .execute();
    },
  };
}

export type DeliveriesRepo = ReturnType<typeof createDeliveriesRepo>;
