import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import { isPlainObject, type JsonObject } from '../../core/json.ts';

export const MAX_LIMIT = 100;

/** A search request once its shape is checked. */
export interface SearchRequest {
  channelFilter: JsonObject;
  /** The plain-text query, when one was given (then there is no message filter). */
  query: unknown;
  messageFilter: unknown;
  limit: number;
  offset: number;
}

function cursorOffset(next: unknown): number {
  if (next === undefined || next === null || next === '') return 0;
  const offset = Number(Buffer.from(String(next), 'base64url').toString('utf8'));
  if (!Number.isInteger(offset) || offset < 0) throw chatError.input('next is not a valid cursor');
  return offset;
}

export function nextCursor(offset: number): string {
  return Buffer.from(String(offset)).toString('base64url');
}

function pageOf(payload: JsonObject): { limit: number; offset: number } {
  if (payload.offset !== undefined && payload.next !== undefined)
    throw chatError.input('offset and next cannot be used together');
  const limit = payload.limit === undefined ? MAX_LIMIT : payload.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw chatError.input(`limit must be between 1 and ${MAX_LIMIT}`);
  }
  const offset = payload.offset !== undefined ? Number(payload.offset) : cursorOffset(payload.next);
  if (!Number.isInteger(offset) || offset < 0 || offset > 1000)
    throw chatError.input('offset must be between 0 and 1000');
  return { limit, offset };
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
  if (hasQuery && messageFilter !== undefined)
    throw chatError.input('query and message_filter_conditions cannot be used together');
  return {
    channelFilter,
    query: hasQuery ? payload.query : undefined,
    messageFilter,
    ...pageOf(payload),
  };
}
