import { chatError } from '../../../errors.ts';
import { requireServerSide, type Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { ChannelQueryResolver } from '../../core/extension-points.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import { decodeOffsetCursor, encodeOffsetCursor, pageLimit } from '../../core/query/cursor.ts';
import type { ListOrder, PredefinedFilterRow, PredefinedFiltersRepo } from './repo.ts';
import {
  FILTER_LIMITS,
  checkFilterTemplate,
  checkSortTemplate,
  interpolate,
  interpolateSort,
  type SortTemplate,
} from './template.ts';

/** Stream's PredefinedFilter (stream-chat types.ts). */
export interface PredefinedFilterResponse {
  name: string;
  operation: 'QueryChannels';
  filter: JsonObject;
  created_at: string;
  updated_at: string;
  description?: string;
  sort?: SortTemplate[];
}

export interface FilterInput {
  operation: string;
  filter: JsonObject;
  description?: string | null;
  sort?: { field: string; direction?: number | null; type?: string | null }[] | null;
}

export interface ListInput {
  limit?: number;
  next?: string;
  prev?: string;
  sort?: { field: string; direction?: number | null }[];
}

type One = Promise<{ predefined_filter: PredefinedFilterResponse }>;

export interface PredefinedFiltersService {
  create(actor: Actor, body: FilterInput & { name: string }): One;
  get(actor: Actor, name: string): One;
  update(actor: Actor, name: string, body: FilterInput): One;
  remove(actor: Actor, name: string): Promise<Record<string, never>>;
  list(
    actor: Actor,
    query: ListInput,
  ): Promise<{ predefined_filters: PredefinedFilterResponse[]; next?: string; prev?: string }>;
  /** Plugged into `ExtensionPoints.channelQuery`: expands `predefined_filter` in a queryChannels request. */
  resolveChannelQuery: ChannelQueryResolver;
}

const NAME = /^[\w.-]+$/;
const LIST_FIELDS = new Set(['name', 'created_at', 'updated_at']);

function checkName(name: string): string {
  if (name.length === 0 || name.length > FILTER_LIMITS.nameLength || !NAME.test(name))
    throw chatError.input(
      `name must be 1 to ${FILTER_LIMITS.nameLength} letters, digits, _, - or .`,
    );
  return name;
}

function toResponse(row: PredefinedFilterRow): PredefinedFilterResponse {
  return {
    name: row.name,
    operation: 'QueryChannels',
    filter: JSON.parse(row.filter) as JsonObject,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.sort !== null ? { sort: JSON.parse(row.sort) as SortTemplate[] } : {}),
  };
}

/** The stored columns a create or update writes, each field checked. */
function storedFields(body: FilterInput) {
  if (body.operation !== 'QueryChannels') throw chatError.input('operation must be QueryChannels');
  const description = body.description || null;
  if (description && description.length > FILTER_LIMITS.descriptionLength)
    throw chatError.input(
      `description must be at most ${FILTER_LIMITS.descriptionLength} characters`,
    );
  const sort = checkSortTemplate(body.sort);
  return {
    operation: body.operation,
    description,
    filter: JSON.stringify(checkFilterTemplate(body.filter)),
    sort: sort ? JSON.stringify(sort) : null,
  };
}

function listOrder(sort: ListInput['sort']): ListOrder {
  return (sort ?? []).map((entry, i) => {
    if (!LIST_FIELDS.has(entry.field))
      throw chatError.input(`sort[${i}].field must be name, created_at or updated_at`);
    return {
      column: entry.field as ListOrder[number]['column'],
      direction: entry.direction === -1 ? 'desc' : 'asc',
    };
  });
}

/** Predefined filters: stored channel-query templates, managed server-side only, used by any queryChannels call. */
export function createPredefinedFiltersService(context: {
  deps: ChatDeps;
  repo: PredefinedFiltersRepo;
}): PredefinedFiltersService {
  const { deps, repo } = context;
  const serverOnly = (actor: Actor, what: string) =>
    requireServerSide(actor, `${what} is a server-side only action`);
  const notFound = (name: string) => chatError.notFound(`predefined filter ${name} does not exist`);
  async function existing(appId: string, name: string): Promise<PredefinedFilterRow> {
    const row = await repo.get(appId, name);
    if (!row) throw notFound(name);
    return row;
  }
  return {
    async create(actor, body) {
      serverOnly(actor, 'creating a predefined filter');
      const name = checkName(body.name);
      const fields = storedFields(body);
      if ((await repo.count(actor.appId)) >= FILTER_LIMITS.filtersPerApp)
        throw chatError.input(
          `an app may have at most ${FILTER_LIMITS.filtersPerApp} predefined filters`,
        );
      const now = deps.clock.now();
      const row = { app_id: actor.appId, name, ...fields, created_at: now, updated_at: now };
      if (!(await repo.create(row)))
        throw chatError.input(`predefined filter ${name} already exists`);
      return { predefined_filter: toResponse(row) };
    },
    async get(actor, name) {
      serverOnly(actor, 'reading a predefined filter');
      return { predefined_filter: toResponse(await existing(actor.appId, name)) };
    },
    async update(actor, name, body) {
      serverOnly(actor, 'updating a predefined filter');
      const fields = storedFields(body);
      if (!(await repo.update(actor.appId, name, { ...fields, updated_at: deps.clock.now() })))
        throw notFound(name);
      return { predefined_filter: toResponse(await existing(actor.appId, name)) };
    },
    async remove(actor, name) {
      serverOnly(actor, 'deleting a predefined filter');
      if (!(await repo.remove(actor.appId, name))) throw notFound(name);
      return {};
    },
    async list(actor, query) {
      serverOnly(actor, 'listing predefined filters');
      const limit = pageLimit(query.limit, 25, 100);
      const order = listOrder(query.sort);
      const offset = query.prev
        ? Math.max(0, decodeOffsetCursor(query.prev, 'prev') - limit)
        : decodeOffsetCursor(query.next, 'next');
      // One row past the page tells whether there is a next one.
      const rows = await repo.list(actor.appId, order, limit + 1, offset);
      return {
        predefined_filters: rows.slice(0, limit).map(toResponse),
        ...(rows.length > limit ? { next: encodeOffsetCursor(offset + limit) } : {}),
        ...(offset > 0 ? { prev: encodeOffsetCursor(offset) } : {}),
      };
    },
    resolveChannelQuery: createChannelQueryResolver(existing),
  };
}

/**
 * Plugged into `ExtensionPoints.channelQuery`: a queryChannels request naming a predefined filter runs the stored
 * templates filled from its `filter_values` and `sort_values`; the answer says what ran (`predefined_filter`).
 */
function createChannelQueryResolver(
  find: (appId: string, name: string) => Promise<PredefinedFilterRow>,
): ChannelQueryResolver {
  return async (actor, body) => {
    const name = body.predefined_filter;
    if (name === undefined || name === null) return undefined;
    if (typeof name !== 'string') throw chatError.input('predefined_filter must be a string');
    const row = await find(actor.appId, name);
    const values = body.filter_values ?? {};
    const sortValues = body.sort_values ?? {};
    if (!isPlainObject(values)) throw chatError.input('filter_values must be an object');
    if (!isPlainObject(sortValues)) throw chatError.input('sort_values must be an object');
    const filter = interpolate(JSON.parse(row.filter), values, 'filter_values') as JsonObject;
    // A stored sort wins over the request's, as on Stream; without one the request's sort applies.
    const stored = row.sort
      ? interpolateSort(JSON.parse(row.sort) as SortTemplate[], sortValues)
      : null;
    return {
      body: {
        ...body,
        filter_conditions: filter,
        sort: stored ? stored.map(({ field, direction }) => ({ field, direction })) : body.sort,
      },
      answer: { predefined_filter: { name, filter, ...(stored ? { sort: stored } : {}) } },
    };
  };
}
