import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';
import type { SortItem } from '../../core/query/sort.ts';
import { decodeCursor, readSort, type Cursor } from './keyset.ts';

export const MAX_LIMIT = 100;
/** Like Stream, offsets reach the first 1000 results; `next` pages through all of them. */
export const MAX_OFFSET = 1000;

/** A search request once its shape is checked. */
export interface SearchRequest {
  channelFilter: JsonObject;
  /** The plain-text query, when one was given (then there is no message filter). */
  query: unknown;
  messageFilter: unknown;
  limit: number;
  offset: number;
  sort: SortItem[];
  /** Where the previous page ended, when paging with `next`. */
  cursor: Cursor | null;
}

function given(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '';
}

function pageOf(payload: JsonObject): Pick<SearchRequest, 'limit' | 'offset' | 'sort' | 'cursor'> {
  const limit = payload.limit ?? MAX_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT)
    throw chatError.input(`limit must be between 1 and ${MAX_LIMIT}`);
  const offset = payload.offset ?? 0;
  if (typeof offset !== 'number' || !Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET)
    throw chatError.input(`offset must be between 0 and ${MAX_OFFSET}`);
  const hasSort = Array.isArray(payload.sort) ? payload.sort.length > 0 : given(payload.sort);
  // Stream's rules: a non-zero offset is for the default order only, and never mixes with a cursor.
  if (offset > 0 && given(payload.next))
    throw chatError.input('offset cannot be used together with next');
  if (offset > 0 && hasSort) throw chatError.input('offset cannot be used together with sort');
  if (given(payload.next)) {
    if (typeof payload.next !== 'string') throw chatError.input('next is not a valid cursor');
    const cursor = decodeCursor(payload.next);
    return { limit, offset: 0, sort: cursor.sort, cursor };
  }
  return { limit, offset, sort: readSort(payload.sort), cursor: null };
}

/** Checks who searches and what they sent, in the order the errors are reported. */
export function readSearchRequest(actor: Actor, payload: JsonObject): SearchRequest {
  if (!actor.userId && !actor.isServer) throw chatError.notAllowed('anonymous users cannot search');
  const channelFilter = payload.filter_conditions;
  if (!isPlainObject(channelFilter) || Object.keys(channelFilter).length === 0) {
    throw chatError.input('filter_conditions is required and must select channels');
  }
  const hasQuery = typeof payload.query === 'string' && payload.query.trim().length > 0;
  const messageFilter = payload.message_filter_conditions;
  if (!hasQuery && !isPlainObject(messageFilter))
    throw chatError.input('either query or message_filter_conditions is required');
  if (hasQuery && messageFilter !== undefined && messageFilter !== null)
    throw chatError.input('query and message_filter_conditions cannot be used together');
  return {
    channelFilter,
    query: hasQuery ? payload.query : undefined,
    messageFilter,
    ...pageOf(payload),
  };
}
