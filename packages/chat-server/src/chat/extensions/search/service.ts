import type { Actor } from '../../core/access/access.ts';
import { withFeatureOn } from '../../core/channel-types/features.ts';
import { compileChannelFilter } from '../../core/channels/query.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { JsonObject } from '../../core/json.ts';
import type { MessageAssembler } from '../../core/messages/assembler.ts';
import type { MessageResponse } from '../../core/messages/serialize.ts';
import { messageOrder, messageWhere } from './message-filter.ts';
import { createSearchRepo, type SearchRepo } from './repo.ts';
import { nextCursor, readSearchRequest } from './request.ts';

const MAX_CHANNELS = 500;

type SearchResponse = { results: { message: MessageResponse }[]; next?: string };

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

async function search(
  { deps, assembler, repo }: Required<SearchContext>,
  actor: Actor,
  payload: JsonObject,
): Promise<SearchResponse> {
  const request = readSearchRequest(actor, payload);
  const { limit, offset } = request;
  const channelWhere = withFeatureOn(
    compileChannelFilter(deps.dialect, actor, request.channelFilter, deps.channelTypes),
    deps.channelTypes,
    actor.appId,
    'c.type',
    'search',
  );
  const cids = await repo.readableChannels(
    actor.appId,
    actor.userId ?? '',
    channelWhere,
    MAX_CHANNELS,
  );
  if (cids.length === 0) return { results: [] };

  const where = messageWhere(deps.dialect, request.query, request.messageFilter);
  const order = messageOrder(deps.dialect, payload.sort);
  const rows = await repo.messages(
    actor.appId,
    actor.userId,
    cids,
    where,
    order,
    limit + 1,
    offset,
  );
  const messages = await assembler.assemble(actor.appId, rows.slice(0, limit), actor.userId);
  const result: SearchResponse = { results: messages.map((message) => ({ message })) };
  if (rows.length > limit) result.next = nextCursor(offset + limit);
  return result;
}

export function createSearchService(context: SearchContext): SearchService {
  const resolved = { ...context, repo: context.repo ?? createSearchRepo(context.deps.db) };
  return { search: (actor, payload) => search(resolved, actor, payload) };
}
