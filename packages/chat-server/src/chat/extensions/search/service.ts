import type { SqlDialectKind } from '../../../db/schema.ts';
import type { Actor } from '../../core/access/access.ts';
import { withFeatureOn } from '../../core/channel-types/features.ts';
import { compileChannelFilter } from '../../core/channels/query.ts';
import type { ChannelTypeLookup } from '../../core/channel-types.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import { after, before, encodeCursor, orderBy, sortKeys } from './keyset.ts';
import {
  leadingText,
  MSG,
  messageWhere,
  rankedText,
  textDriven,
  whereBesideText,
} from './message-filter.ts';
import { createSearchRepo, type SearchQuery, type SearchRepo, type SearchRow } from './repo.ts';
import { readSearchRequest, type SearchRequest } from './request.ts';
import { ftsQuery, relevance } from './text-query.ts';

type SearchResponse = {
  results: { message: MessageResponse }[];
  next?: string;
  previous?: string;
};

export interface SearchService {
  /** GET /search: messages matching a text query or message filter, in channels matching a channel filter. */
  search(actor: Actor, payload: JsonObject): Promise<SearchResponse>;
}

/** What the search service is built from (`repo` defaults to the one on `deps.db`). */
export interface SearchContext {
  deps: ChatDeps;
  assembler: MessageAssembler;
  repo?: SearchRepo;
}

/** The cursor of the page after `row` (`next`), or before it (`previous`). */
function cursorAt(request: SearchRequest, row: SearchRow, backward: boolean): string {
  const keys = request.sort.map((_, i) => row[`k${i}`] ?? null);
  return encodeCursor({ sort: request.sort, keys, id: row.id, ...(backward ? { backward } : {}) });
}

/** The channels a search reads: the request's filter, among the types with `search` on (all built-ins without a lookup). */
function searchableChannels(
  dialect: SqlDialectKind,
  actor: Actor,
  request: SearchRequest,
  types: ChannelTypeLookup | undefined,
) {
  const filter = compileChannelFilter(dialect, actor, request.channelFilter, types);
  return types ? withFeatureOn(filter, types, actor.appId, 'c.type', 'search') : filter;
}

/**
 * How many of the newest matches a search sorted by relevance or recency reads (Stream's own search ranks a bounded
 * set of candidates too). It is more than `offset` + `limit` can reach, so a recency sort pages through every match.
 */
export const SEARCH_CANDIDATES = 2000;

/** The sort puts newer messages first, or ranks by relevance with recency breaking its (many) ties. */
function newestFirst(sort: SearchRequest['sort']): boolean {
  const first = sort[0];
  return (
    !!first &&
    first.direction === -1 &&
    (first.field === 'relevance' || first.field === 'created_at')
  );
}

/** The FTS5 query of the text every result must match, when it has words (see `leadingText`). */
function leadingFts(query: unknown, filter: unknown): string | null {
  const text = leadingText(query, filter);
  return text && text.words.length > 0 ? ftsQuery(text.words) : null;
}

/** The query of one page of a search: what `repo.messages` runs (also used by bench/search). */
export function compileSearch(
  dialect: SqlDialectKind,
  actor: Actor,
  request: SearchRequest,
  types?: ChannelTypeLookup,
  candidates: number | null = SEARCH_CANDIDATES,
): SearchQuery {
  const byText = textDriven(request.query, request.messageFilter);
  // Both databases rank the same candidates, so a search answers the same on either.
  const capped = byText && newestFirst(request.sort) ? candidates : null;
  const ftsLead =
    dialect === 'sqlite' && capped !== null
      ? leadingFts(request.query, request.messageFilter)
      : null;
  const where = ftsLead
    ? whereBesideText(dialect, request.query, request.messageFilter)
    : [messageWhere(dialect, request.query, request.messageFilter)];
  const score = relevance(dialect, MSG, rankedText(request.query, request.messageFilter));
  const keys = sortKeys(dialect, request.sort, score);
  const backward = request.cursor?.backward === true;
  if (request.cursor)
    where.push(backward ? before(keys, request.cursor) : after(keys, request.cursor));
  return {
    dialect,
    appId: actor.appId,
    viewerId: actor.userId,
    channelWhere: searchableChannels(dialect, actor, request, types),
    textDriven: dialect === 'sqlite' && byText,
    where,
    order: orderBy(keys, backward),
    keys: keys.map((key) => key.expression),
    directions: keys.map((key) => key.direction),
    backward,
    limit: request.limit + 1,
    offset: request.offset,
    candidates: capped,
    ftsLead,
  };
}

async function search(
  { deps, assembler, repo }: Required<SearchContext>,
  actor: Actor,
  payload: JsonObject,
): Promise<SearchResponse> {
  const request = readSearchRequest(actor, payload);
  const rows = await repo.messages(compileSearch(deps.dialect, actor, request, deps.channelTypes));
  const backward = request.cursor?.backward === true;
  // A previous page was read in reverse: its extra row lies before it, and it is turned back into the sort's order.
  const page = rows.slice(0, request.limit);
  if (backward) page.reverse();
  const more = rows.length > request.limit;
  const messages = await assembler.assemble(actor.appId, page, actor.userId);
  const result: SearchResponse = { results: messages.map((message) => ({ message })) };
  const [first, last] = [page[0], page.at(-1)];
  if (last && (backward || more)) result.next = cursorAt(request, last, false);
  if (first && (backward ? more : request.cursor !== null))
    result.previous = cursorAt(request, first, true);
  return result;
}

export function createSearchService(context: SearchContext): SearchService {
  const resolved = { ...context, repo: context.repo ?? createSearchRepo(context.deps.db) };
  return { search: (actor, payload) => search(resolved, actor, payload) };
}
