import { randomUUID } from 'node:crypto';
import type { RawBuilder } from 'kysely';
import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { PollCopier } from '../../core/extension-points.ts';
import type { JsonObject } from '../../core/json.ts';
import { compileFilter } from '../../core/query/filter.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { DeliveriesRepo } from './deliveries-repo.ts';
import type { CampaignDriver } from './driver.ts';
import type { CampaignData } from './data.ts';
import { pageOf } from './paging.ts';
import type { CampaignRow, CampaignRowsRepo, CampaignStatus } from './repo.ts';
import { requireServer, type SegmentsService } from './segments.ts';
import type {
  CreateCampaignInput,
  QueryInput,
  StartCampaignInput,
  UpdateCampaignInput,
} from './schemas.ts';
import { campaignResponder } from './response.ts';

export interface CampaignsContext {
  deps: ChatDeps;
  users: UsersService;
  rows: CampaignRowsRepo;
  segments: SegmentsService;
  driver: CampaignDriver;
  deliveries: DeliveriesRepo;
  pollCopiers: readonly PollCopier[];
}

const DATA_FIELDS = [
  'name',
  'description',
  'message_template',
  'segment_ids',
  'user_ids',
  'sender_id',
  'sender_mode',
  'sender_visibility',
  'channel_template',
  'create_channels',
  'show_channels',
  'skip_push',
  'skip_webhook',
] as const;

function dataOf(input: Partial<CampaignData>): Partial<CampaignData> {
  const data: Record<string, unknown> = {};
  for (const field of DATA_FIELDS) if (input[field] !== undefined) data[field] = input[field];
  return data as Partial<CampaignData>;
}

/** Stream refuses to change or restart a campaign that is under way or done. */
const EDITABLE: CampaignStatus[] = ['draft', 'scheduled', 'stopped'];
const STARTABLE: CampaignStatus[] = ['draft', 'stopped'];

export function createCampaignsService(ctx: CampaignsContext) {
  const { deps, rows } = ctx;
  const respond = campaignResponder(ctx);

  async function row(appId: string, id: string): Promise<CampaignRow> {
    const found = await rows.get(appId, id);
    if (!found) throw chatError.notFound(`campaign ${id} does not exist`);
    return found;
  }

  /** Who the campaign names must exist when it is stored, as Stream checks them. */
  async function checkReferences(appId: string, data: CampaignData): Promise<void> {
    if (!(await ctx.users.getRow(appId, data.sender_id)))
      throw chatError.input(`sender_id ${data.sender_id} does not exist`);
    for (const segmentId of data.segment_ids ?? []) {
      const segment = await ctx.segments.row(appId, segmentId).catch(() => undefined);
      if (!segment) throw chatError.input(`segment_ids: segment ${segmentId} does not exist`);
    }
    const pollId = data.message_template.poll_id;
    if (pollId && !(await ctx.pollCopiers[0]?.exists(appId, pollId)))
      throw chatError.input(`message_template.poll_id: poll ${pollId} does not exist`);
    if (!data.segment_ids?.length && !data.user_ids?.length)
      throw chatError.input('segment_ids or user_ids must name at least one target');
  }

  return {
    async create(actor: Actor, input: CreateCampaignInput) {
      requireServer(actor, 'creating a campaign');
      const data = dataOf(input as Partial<CampaignData>) as CampaignData;
      await checkReferences(actor.appId, data);
      const now = deps.clock.now();
      const stored: CampaignRow = {
        app_id: actor.appId,
        id: input.id ?? randomUUID(),
        data: JSON.stringify(data),
        status: 'draft',
        scheduled_for: null,
        stop_at: null,
        targets_ready: 0,
        stats_targets: 0,
        stats_messages_sent: 0,
        stats_users_failed: 0,
        stats_channels_created: 0,
        stats_started_at: null,
        stats_completed_at: null,
        lease_owner: null,
        lease_expires: null,
        created_at: now,
        updated_at: now,
      };
      if (await rows.get(actor.appId, stored.id))
        throw chatError.input(`campaign ${stored.id} already exists`);
      await rows.insert(stored);
      return respond(stored);
    },
    async get(actor: Actor, id: string, limit: number) {
      requireServer(actor, 'reading a campaign');
      return respond(await row(actor.appId, id), limit);
    },
    async update(actor: Actor, id: string, input: UpdateCampaignInput) {
      requireServer(actor, 'updating a campaign');
      const current = await row(actor.appId, id);
      const data = {
        ...(JSON.parse(current.data) as CampaignData),
        ...dataOf(input as Partial<CampaignData>),
      };
      await checkReferences(actor.appId, data);
      const now = deps.clock.now();
      // A stopped campaign lists its targets again when resumed, so added users or segments are reached too (the
      // delivery rows already there keep everyone reached once).
      const patch = { data: JSON.stringify(data), targets_ready: 0, updated_at: now };
      if (!(await rows.transition(actor.appId, id, EDITABLE, patch)))
        throw chatError.input(`campaign ${id} is ${current.status} and can no longer be updated`);
      return respond({ ...current, ...patch });
    },
    async start(actor: Actor, id: string, input: StartCampaignInput) {
      requireServer(actor, 'starting a campaign');
      const current = await row(actor.appId, id);
      const now = deps.clock.now();
      const scheduledFor = input.scheduled_for ? normalizeIso(input.scheduled_for) : null;
      const stopAt = input.stop_at ? normalizeIso(input.stop_at) : null;
      if (stopAt && stopAt <= (scheduledFor ?? now))
        throw chatError.input('stop_at must be later than the start');
      const later = scheduledFor !== null && scheduledFor > now;
      const patch: Partial<CampaignRow> = {
        status: later ? 'scheduled' : 'in_progress',
        scheduled_for: scheduledFor,
        stop_at: stopAt,
        stats_started_at: later ? null : (current.stats_started_at ?? now),
        stats_completed_at: null,
        updated_at: now,
      };
      if (!(await rows.transition(actor.appId, id, STARTABLE, patch)))
        throw chatError.input(`campaign ${id} is ${current.status} and cannot be started`);
      if (!later) ctx.driver.kick({ app_id: actor.appId, id });
      return respond({ ...current, ...patch });
    },
    async stop(actor: Actor, id: string) {
      requireServer(actor, 'stopping a campaign');
      const current = await row(actor.appId, id);
      const patch = { status: 'stopped', updated_at: deps.clock.now() };
      if (!(await rows.transition(actor.appId, id, ['scheduled', 'in_progress'], patch)))
        throw chatError.input(`campaign ${id} is ${current.status} and cannot be stopped`);
      const { campaign } = await respond({ ...current, ...patch });
      return { campaign };
    },
    async remove(actor: Actor, id: string) {
      requireServer(actor, 'deleting a campaign');
      if (!(await rows.remove(actor.appId, id)))
        throw chatError.notFound(`campaign ${id} does not exist`);
      return {};
    },
    async query(actor: Actor, input: QueryInput) {
      requireServer(actor, 'querying campaigns');
      const page = pageOf(input);
      const where = campaignsFilter(deps.dialect, input.filter);
      const found = await rows.query(
        actor.appId,
        where,
        page.offset,
        page.limit + 1,
        page.descending,
      );
      const userLimit = typeof input.user_limit === 'number' ? input.user_limit : 10;
      const campaigns = await Promise.all(
        found.slice(0, page.limit).map(async (r) => (await respond(r, userLimit)).campaign),
      );
      return { campaigns, ...page.cursors(found.length > page.limit) };
    },
  };
}

/** queryCampaigns filters on the campaign's own columns: id, status and its timestamps. */
function campaignsFilter(
  dialect: ChatDeps['dialect'],
  filter: JsonObject | null | undefined,
): RawBuilder<boolean> {
  return compileFilter(filter ?? {}, {
    dialect,
    entity: 'campaigns',
    fields: {
      id: { kind: 'column', ref: 'id', type: 'text' },
      status: { kind: 'column', ref: 'status', type: 'text' },
      created_at: { kind: 'column', ref: 'created_at', type: 'date' },
      updated_at: { kind: 'column', ref: 'updated_at', type: 'date' },
    },
  });
}

export type CampaignsService = ReturnType<typeof createCampaignsService>;
