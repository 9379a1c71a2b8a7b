import { randomUUID } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import { chatError } from '../../../errors.ts';
import { requireServerSide, type Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import { type JsonObject } from '../../core/json.ts';
import { compileFilter } from '../../core/query/filter.ts';
import { userFilterSchema } from '../../core/users/query.ts';
import { checkChannelFilter, checkChannelTargets, countChannels } from './channel-targets.ts';
import { pageOf, type Page } from './paging.ts';
import { campaignTables, type SegmentRow } from './repo.ts';
import type { CreateSegmentInput, QueryInput, UpdateSegmentInput } from './schemas.ts';

/** Stream's SegmentResponse. `size` is the number of targets it reaches now (users that exist, or channels). */
export interface SegmentResponse {
  id: string;
  type: string;
  name: string;
  description: string;
  filter: JsonObject;
  all_users: boolean;
  all_sender_channels: boolean;
  created_at: string;
  updated_at: string;
  deleted_at: string;
  locked: boolean;
  size: number;
  task_id: string;
}

export function requireServer(actor: Actor, what: string): void {
  requireServerSide(actor, `${what} is allowed only server-side`);
}

function filterOf(row: SegmentRow): JsonObject {
  return row.filter ? (JSON.parse(row.filter) as JsonObject) : {};
}

export function createSegmentsService(deps: ChatDeps) {
  const db = campaignTables(deps.db);

  async function row(appId: string, id: string): Promise<SegmentRow> {
    const found = await db
      .selectFrom('segments')
      .selectAll()
      .where('app_id', '=', appId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) throw chatError.notFound(`segment ${id} does not exist`);
    return found;
  }

  /** SQL over `users` selecting the segment's users: everyone, the filter's matches, or the listed targets. */
  function usersWhere(segment: SegmentRow): RawBuilder<boolean> {
    const live = sql<boolean>`app_id = ${segment.app_id} and deleted_at is null and deactivated_at is null`;
    if (segment.all_users === 1) return live;
    const filter = filterOf(segment);
    const matched =
      Object.keys(filter).length > 0
        ? compileFilter(filter, userFilterSchema(deps.dialect, []))
        : sql<boolean>`1 = 0`;
    const listed = sql<boolean>`id in (select target_id from segment_targets where app_id = ${segment.app_id} and segment_id = ${segment.id})`;
    return sql<boolean>`${live} and ((${matched}) or ${listed})`;
  }

  async function sizeOf(segment: SegmentRow): Promise<number> {
    if (segment.type === 'channel') return countChannels(deps, segment);
    const { rows } = await sql<{
      n: number | string;
    }>`select count(*) as n from users where ${usersWhere(segment)}`.execute(deps.db);
    return Number(rows[0]?.n ?? 0);
  }

  async function toResponse(segment: SegmentRow): Promise<SegmentResponse> {
    return {
      id: segment.id,
      type: segment.type,
      name: segment.name ?? '',
      description: segment.description ?? '',
      filter: filterOf(segment),
      all_users: segment.all_users === 1,
      all_sender_channels: segment.all_sender_channels === 1,
      created_at: segment.created_at,
      updated_at: segment.updated_at,
      deleted_at: '',
      locked: false,
      size: await sizeOf(segment),
      task_id: '',
    };
  }

  /** A filter is checked when stored, so a bad one is the caller's code 4 now rather than a failed campaign later. */
  function checkFilter(
    appId: string,
    type: string,
    filter: JsonObject | null | undefined,
  ): string | null {
    if (!filter || Object.keys(filter).length === 0) return null;
    if (type === 'channel') checkChannelFilter(deps, appId, filter);
    else compileFilter(filter, userFilterSchema(deps.dialect, []));
    return JSON.stringify(filter);
  }

  return {
    row,
    usersWhere,
    toResponse,
    /** The user ids a segment reaches, in id order, a page at a time (after `after`). */
    async userIds(segment: SegmentRow, after: string, limit: number): Promise<string[]> {
      const { rows } = await sql<{ id: string }>`select id from users where ${usersWhere(segment)}
        and id > ${after} order by id limit ${limit}`.execute(deps.db);
      return rows.map((r) => r.id);
    },
    async create(actor: Actor, input: CreateSegmentInput) {
      requireServer(actor, 'creating a segment');
      const id = input.id ?? randomUUID();
      const now = deps.clock.now();
      const stored: SegmentRow = {
        app_id: actor.appId,
        id,
        type: input.type,
        name: input.name ?? null,
        description: input.description ?? null,
        filter: checkFilter(actor.appId, input.type, input.filter),
        all_users: input.all_users === true ? 1 : 0,
        all_sender_channels: input.all_sender_channels === true ? 1 : 0,
        created_at: now,
        updated_at: now,
      };
      const inserted = await db
        .insertInto('segments')
        .values(stored)
        .onConflict((oc) => oc.columns(['app_id', 'id']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1)
        throw chatError.input(`segment ${id} already exists`);
      return { segment: await toResponse(stored) };
    },
    async get(actor: Actor, id: string) {
      requireServer(actor, 'reading a segment');
      return { segment: await toResponse(await row(actor.appId, id)) };
    },
    async update(actor: Actor, id: string, input: UpdateSegmentInput) {
      requireServer(actor, 'updating a segment');
      const current = await row(actor.appId, id);
      const patch: Partial<SegmentRow> = { updated_at: deps.clock.now() };
      if (input.name !== undefined) patch.name = input.name;
      if (input.description !== undefined) patch.description = input.description;
      if (input.filter !== undefined)
        patch.filter = checkFilter(actor.appId, current.type, input.filter);
      if (input.all_users != null) patch.all_users = input.all_users ? 1 : 0;
      if (input.all_sender_channels != null)
        patch.all_sender_channels = input.all_sender_channels ? 1 : 0;
      await db
        .updateTable('segments')
        .set(patch)
        .where('app_id', '=', actor.appId)
        .where('id', '=', id)
        .execute();
      return { segment: await toResponse({ ...current, ...patch }) };
    },
    async remove(actor: Actor, id: string) {
      requireServer(actor, 'deleting a segment');
      await row(actor.appId, id);
      await db
        .deleteFrom('segment_targets')
        .where('app_id', '=', actor.appId)
        .where('segment_id', '=', id)
        .execute();
      await db
        .deleteFrom('segments')
        .where('app_id', '=', actor.appId)
        .where('id', '=', id)
        .execute();
      return {};
    },
    async query(actor: Actor, input: QueryInput) {
      requireServer(actor, 'querying segments');
      const page = pageOf(input);
      const where = segmentsFilter(deps.dialect, input.filter);
      const rows = await db
        .selectFrom('segments')
        .selectAll()
        .where('app_id', '=', actor.appId)
        .where(() => where)
        .orderBy('created_at', page.descending ? 'desc' : 'asc')
        .orderBy('id')
        .offset(page.offset)
        .limit(page.limit + 1)
        .execute();
      return {
        segments: await Promise.all(rows.slice(0, page.limit).map(toResponse)),
        ...page.cursors(rows.length > page.limit),
      };
    },
    ...createTargetUseCases(deps, row),
  };
}

/** querySegments filters on id, type and name ($eq / $in). */
function segmentsFilter(
  dialect: ChatDeps['dialect'],
  filter: JsonObject | null | undefined,
): RawBuilder<boolean> {
  return compileFilter(filter ?? {}, {
    dialect,
    entity: 'segments',
    fields: {
      id: { kind: 'column', ref: 'id', type: 'text' },
      type: { kind: 'column', ref: 'type', type: 'text' },
      name: { kind: 'column', ref: 'name', type: 'text' },
    },
  });
}

function createTargetUseCases(
  deps: ChatDeps,
  row: (appId: string, id: string) => Promise<SegmentRow>,
) {
  const db = campaignTables(deps.db);
  return {
    async addTargets(actor: Actor, id: string, targetIds: string[]) {
      requireServer(actor, 'adding segment targets');
      const segment = await row(actor.appId, id);
      if (segment.type === 'channel') checkChannelTargets(targetIds);
      const now = deps.clock.now();
      const unique = [...new Set(targetIds)];
      for (let i = 0; i < unique.length; i += 500)
        await db
          .insertInto('segment_targets')
          .values(
            unique.slice(i, i + 500).map((target_id) => ({
              app_id: actor.appId,
              segment_id: id,
              target_id,
              created_at: now,
            })),
          )
          .onConflict((oc) => oc.columns(['app_id', 'segment_id', 'target_id']).doNothing())
          .execute();
      return {};
    },
    async removeTargets(actor: Actor, id: string, targetIds: string[]) {
      requireServer(actor, 'removing segment targets');
      await row(actor.appId, id);
      for (let i = 0; i < targetIds.length; i += 500)
        await db
          .deleteFrom('segment_targets')
          .where('app_id', '=', actor.appId)
          .where('segment_id', '=', id)
          .where('target_id', 'in', targetIds.slice(i, i + 500))
          .execute();
      return {};
    },
    async targetExists(actor: Actor, id: string, targetId: string) {
      requireServer(actor, 'checking a segment target');
      await row(actor.appId, id);
      const found = await db
        .selectFrom('segment_targets')
        .select('target_id')
        .where('app_id', '=', actor.appId)
        .where('segment_id', '=', id)
        .where('target_id', '=', targetId)
        .executeTakeFirst();
      if (!found) throw chatError.notFound(`target ${targetId} is not in segment ${id}`);
      return {};
    },
    async queryTargets(actor: Actor, id: string, input: QueryInput) {
      requireServer(actor, 'querying segment targets');
      await row(actor.appId, id);
      const page = pageOf(input);
      const where = compileFilter(input.filter ?? {}, {
        dialect: deps.dialect,
        entity: 'segment targets',
        fields: { target_id: { kind: 'column', ref: 'target_id', type: 'text' } },
      });
      const rows = await db
        .selectFrom('segment_targets')
        .select(['segment_id', 'target_id', 'created_at'])
        .where('app_id', '=', actor.appId)
        .where('segment_id', '=', id)
        .where(() => where)
        .orderBy('target_id', page.descending ? 'desc' : 'asc')
        .offset(page.offset)
        .limit(page.limit + 1)
        .execute();
      return { targets: rows.slice(0, page.limit), ...page.cursors(rows.length > page.limit) };
    },
  };
}

export type SegmentsService = ReturnType<typeof createSegmentsService>;
export type { Page };
