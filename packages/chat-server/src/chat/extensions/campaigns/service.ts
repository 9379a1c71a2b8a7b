import type { ChannelsService } from '../../core/channels/service.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { PollCopier } from '../../core/extension-points.ts';
import type { MessagesService } from '../../core/messages/service.ts';
import type { UsersService } from '../../core/users/service.ts';
import { createCampaignsService, type CampaignsService } from './campaigns.ts';
import { createDeliveriesRepo } from './deliveries-repo.ts';
import { createCampaignDriver } from './driver.ts';
import { campaignTables, createCampaignRowsRepo } from './repo.ts';
import { createSegmentsService, type SegmentsService } from './segments.ts';

export interface CampaignsExtension {
  segments: SegmentsService;
  campaigns: CampaignsService;
  /** Starts looking for campaigns to drive (scheduled ones coming due, running ones left by a stopped node). */
  start(): void;
  /** Finishes the sends in flight and hands this node's campaigns back, so another node or a restart resumes them. */
  stop(): Promise<void>;
  /** Resolves once this node drives no campaign (tests). */
  idle(): Promise<void>;
}

export function createCampaignsExtension(ctx: {
  deps: ChatDeps;
  users: UsersService;
  channels: ChannelsService;
  messages: MessagesService;
  /** The core's poll copiers (filled once the extensions are plugged in, before any campaign runs). */
  pollCopiers: readonly PollCopier[];
}): CampaignsExtension {
  const db = campaignTables(ctx.deps.db);
  const rows = createCampaignRowsRepo(db);
  const segments = createSegmentsService(ctx.deps);
  const deliveries = createDeliveriesRepo(db);
  const driver = createCampaignDriver({ ...ctx, rows, deliveries, segments });
  return {
    segments,
    campaigns: createCampaignsService({
      deps: ctx.deps,
      users: ctx.users,
      rows,
      segments,
      driver,
      deliveries,
      pollCopiers: ctx.pollCopiers,
    }),
    start: () => driver.start(),
    stop: () => driver.stop(),
    idle: () => driver.idle(),
  };
}
