import { randomUUID } from 'node:crypto';
import { isoFromMicros } from '../../../db/clock.ts';
import { channelCids } from './channel-targets.ts';
import type { CampaignData } from './data.ts';
import { campaignSender, deliverOne, type DeliverContext } from './deliver-one.ts';
import type { TemplateUser } from '@daohuu/domain';
import type { DeliveriesRepo } from './deliveries-repo.ts';
import type { CampaignRow, CampaignRowsRepo } from './repo.ts';
import type { SegmentsService } from './segments.ts';

/** Targets read per batch; each batch renews the lease and publishes the counters. */
export const BATCH_SIZE = 100;
/**
 * Sends in flight at once within a batch: few enough to leave the database pool to interactive requests; the status
 * is re-read between groups, so a stop lands within one.
 */
const GROUP_SIZE = 4;
/** How long a node's claim on a campaign holds without renewal; a crashed node's campaign resumes after it. */
const LEASE_MS = 15_000;
/** How often each node looks for campaigns that are due (scheduled) or whose driver went away. */
const SWEEP_MS = 1_000;

export interface DriverContext extends DeliverContext {
  rows: CampaignRowsRepo;
  deliveries: DeliveriesRepo;
  segments: SegmentsService;
}

type Key = Pick<CampaignRow, 'app_id' | 'id'>;

export interface CampaignDriver {
  /** Drives the campaign from this node now if no other node does. */
  kick(key: Key): void;
  start(): void;
  /** Lets the batches in flight finish, hands the leases back and stops looking for work. */
  stop(): Promise<void>;
  /** Resolves once no campaign is being driven by this node (tests). */
  idle(): Promise<void>;
}

function isoIn(ms: number): string {
  return isoFromMicros((Date.now() + ms) * 1000);
}

/**
 * Each node runs one driver. Only the node holding a campaign's lease sends its messages, and every target has one
 * delivery row whose message id is fixed, so a target gets the campaign once however many nodes, restarts or
 * lease take-overs there are.
 */
export function createCampaignDriver(ctx: DriverContext): CampaignDriver {
  const owner = randomUUID();
  const running = new Map<string, Promise<void>>();
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;

  function kick(key: Key): void {
    const name = `${key.app_id}\n${key.id}`;
    if (stopped || running.has(name)) return;
    const run = drive(key)
      .catch((error: unknown) =>
        ctx.deps.log.error(
          { err: error, appId: key.app_id, campaign: key.id },
          'campaign run failed',
        ),
      )
      .finally(() => running.delete(name));
    running.set(name, run);
  }

  async function drive(key: Key): Promise<void> {
    if (!(await ctx.deliveries.lease(key, owner, ctx.deps.clock.now(), isoIn(LEASE_MS)))) return;
    try {
      await runLeased(key);
    } finally {
      await ctx.deliveries.release(key, owner);
    }
  }

  async function runLeased(key: Key): Promise<void> {
    let campaign = await ctx.rows.get(key.app_id, key.id);
    if (!campaign) return;
    if (campaign.status === 'scheduled') {
      const now = ctx.deps.clock.now();
      if (campaign.scheduled_for && campaign.scheduled_for > now) return;
      await ctx.rows.transition(key.app_id, key.id, ['scheduled'], {
        status: 'in_progress',
        stats_started_at: now,
        updated_at: now,
      });
    }
    if (campaign.targets_ready === 0) await prepareTargets(ctx, campaign);
    for (;;) {
      campaign = await ctx.rows.get(key.app_id, key.id);
      if (stopped || !campaign || campaign.status !== 'in_progress') return;
      if (await stopAtReached(campaign)) return;
      if (!(await ctx.deliveries.lease(key, owner, ctx.deps.clock.now(), isoIn(LEASE_MS)))) return;
      const batch = await ctx.deliveries.pending(key.app_id, key.id, BATCH_SIZE);
      if (batch.length === 0) {
        const now = ctx.deps.clock.now();
        await ctx.rows.transition(key.app_id, key.id, ['in_progress'], {
          status: 'completed',
          stats_completed_at: now,
          updated_at: now,
        });
        return;
      }
      if (
        !(await sendBatch(
          campaign,
          batch.map((row) => row.user_id),
        ))
      )
        return;
    }
  }

  async function stopAtReached(campaign: CampaignRow): Promise<boolean> {
    const now = ctx.deps.clock.now();
    if (!campaign.stop_at || campaign.stop_at > now) return false;
    await ctx.rows.transition(campaign.app_id, campaign.id, ['in_progress'], {
      status: 'stopped',
      updated_at: now,
    });
    return true;
  }

  /** Sends a batch a group at a time; false once the campaign left in_progress (stopped, deleted) meanwhile. */
  async function sendBatch(campaign: CampaignRow, userIds: string[]): Promise<boolean> {
    const data = JSON.parse(campaign.data) as CampaignData;
    const sender = await campaignSender(ctx, campaign.app_id, data);
    for (let i = 0; i < userIds.length; i += GROUP_SIZE) {
      if (stopped) return false;
      if (i > 0) {
        const current = await ctx.rows.get(campaign.app_id, campaign.id);
        if (current?.status !== 'in_progress') return false;
      }
      const group = userIds.slice(i, i + GROUP_SIZE);
      await Promise.all(group.map((userId) => settleOne(campaign, data, sender, userId)));
    }
    return true;
  }

  async function settleOne(
    campaign: CampaignRow,
    data: CampaignData,
    sender: TemplateUser,
    userId: string,
  ) {
    const outcome = await deliverOne(ctx, campaign.app_id, campaign.id, data, userId, sender);
    const now = ctx.deps.clock.now();
    const key = { app_id: campaign.app_id, campaign_id: campaign.id, user_id: userId };
    const { message_id, cid, status } = outcome;
    // Counted only by whoever records the outcome, so the stats match the rows.
    if (!(await ctx.deliveries.settle(key, { status, message_id, cid }, now))) return;
    if (outcome.status === 'failed')
      ctx.deps.log.warn(
        { appId: campaign.app_id, campaign: campaign.id, userId, reason: outcome.reason },
        'campaign target not delivered',
      );
    await ctx.rows.addStats(
      campaign.app_id,
      campaign.id,
      {
        sent: status === 'sent' ? 1 : 0,
        failed: status === 'failed' ? 1 : 0,
        channelsCreated: outcome.status === 'sent' && outcome.channelCreated ? 1 : 0,
      },
      now,
    );
  }

  async function sweep(): Promise<void> {
    const due = await ctx.deliveries.due(ctx.deps.clock.now(), 20);
    for (const key of due) kick(key);
  }

  return {
    kick,
    start() {
      // A database outage fails every sweep until it ends: say so once, and once again when sweeps work again.
      let failing = false;
      timer = setInterval(() => {
        sweep().then(
          () => {
            if (failing) ctx.deps.log.info({}, 'campaign sweep recovered');
            failing = false;
          },
          (error: unknown) => {
            if (!failing) ctx.deps.log.warn({ err: error }, 'campaign sweep failed');
            failing = true;
          },
        );
      }, SWEEP_MS);
      timer.unref();
      void sweep().catch(() => undefined);
    },
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await Promise.all([...running.values()]);
    },
    async idle() {
      while (running.size > 0) await Promise.all([...running.values()]);
    },
  };
}

/** Writes one pending delivery row per target (the user ids, then each segment's users or cids), then the count. */
async function prepareTargets(ctx: DriverContext, campaign: CampaignRow): Promise<void> {
  const data = JSON.parse(campaign.data) as CampaignData;
  const { app_id: appId, id } = campaign;
  const add = (ids: string[]) =>
    ctx.deliveries.addTargets(
      appId,
      id,
      ids.filter((userId) => userId !== data.sender_id),
      ctx.deps.clock.now(),
    );
  const listed = [...new Set(data.user_ids ?? [])];
  for (let i = 0; i < listed.length; i += 500) {
    const rows = await ctx.users.repo.getMany(appId, listed.slice(i, i + 500));
    await add([...rows.keys()]);
  }
  for (const segmentId of data.segment_ids ?? []) {
    const segment = await ctx.segments.row(appId, segmentId).catch(() => undefined);
    if (!segment) continue;
    // A channel segment's targets are cids (the channel receives one message); a user segment's are user ids.
    const page =
      segment.type === 'channel'
        ? (after: string) => channelCids(ctx.deps, segment, data.sender_id, after, 1000)
        : (after: string) => ctx.segments.userIds(segment, after, 1000);
    for (let after = ''; ;) {
      const ids = await page(after);
      if (ids.length === 0) break;
      await add(ids);
      after = ids[ids.length - 1]!;
    }
  }
  const now = ctx.deps.clock.now();
  await ctx.rows.transition(appId, id, ['in_progress'], {
    targets_ready: 1,
    stats_targets: await ctx.deliveries.countTargets(appId, id),
    updated_at: now,
  });
}
