import { chatError } from '../../../errors.ts';
import { normalizeIso } from '../../../db/clock.ts';
import { isPlainObject } from '../json.ts';
import { boundedInt, PAGE_BOUNDS } from '../query/bounds.ts';

/**
 * Message pagination as the client sends it (channel.query `messages`, getReplies): one cursor family and a limit.
 * Results are always returned ascending by created_at; "before" pages are the newest N older than the cursor.
 */
export interface MessagePage {
  limit: number;
  offset: number;
  /** Without a cursor, the oldest `limit` messages instead of the newest (getReplies with `created_at: 1`). */
  oldestFirst?: boolean;
  idLt?: string;
  idLte?: string;
  idGt?: string;
  idGte?: string;
  idAround?: string;
  createdAtBefore?: string;
  createdAtBeforeOrEqual?: string;
  createdAtAfter?: string;
  createdAtAfterOrEqual?: string;
  createdAtAround?: string;
}

const ID_KEYS = {
  id_lt: 'idLt',
  id_lte: 'idLte',
  id_gt: 'idGt',
  id_gte: 'idGte',
  id_around: 'idAround',
} as const;
const DATE_KEYS = {
  created_at_before: 'createdAtBefore',
  created_at_before_or_equal: 'createdAtBeforeOrEqual',
  created_at_after: 'createdAtAfter',
  created_at_after_or_equal: 'createdAtAfterOrEqual',
  created_at_around: 'createdAtAround',
} as const;

/** Parses pagination options from a JSON body or a query string (every value may arrive as a string). */
export function parseMessagePage(
  raw: unknown,
  defaults: { limit: number; max: number },
): MessagePage {
  if (raw !== undefined && raw !== null && !isPlainObject(raw))
    throw chatError.input('messages pagination must be an object');
  const input = (raw ?? {}) as Record<string, unknown>;
  const limit = boundedInt(input.limit, 'limit', {
    min: 0,
    max: defaults.max,
    fallback: defaults.limit,
  });
  const offset = boundedInt(input.offset, 'offset', {
    min: 0,
    max: PAGE_BOUNDS.maxOffset,
    fallback: 0,
  });
  const page: MessagePage = { limit, offset };
  for (const [key, prop] of Object.entries(ID_KEYS)) {
    const value = input[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string') throw chatError.input(`${key} must be a message id`);
    page[prop] = value;
  }
  for (const [key, prop] of Object.entries(DATE_KEYS)) {
    const value = input[key];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' && typeof value !== 'number')
      throw chatError.input(`${key} must be a date`);
    const iso = normalizeIso(value);
    if (!iso) throw chatError.input(`${key} must be a date`);
    page[prop] = iso;
  }
  return page;
}
