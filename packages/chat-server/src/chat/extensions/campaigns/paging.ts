import { decodeOffsetCursor, encodeOffsetCursor, pageLimit } from '../../core/query/cursor.ts';
import { parseSort } from '../../core/query/sort.ts';
import { chatError } from '../../../errors.ts';
import type { QueryInput } from './schemas.ts';

export interface Page {
  offset: number;
  limit: number;
  descending: boolean;
  /** The `next`/`prev` cursors of this page, given whether more rows follow. */
  cursors(more: boolean): { next?: string; prev?: string };
}

const SORTABLE = new Set(['created_at', 'target_id']);

/** Offset pages behind opaque cursors, sorted by creation (the one order segments and campaigns are listed in). */
export function pageOf(input: QueryInput): Page {
  const limit = pageLimit(input.limit, 25, 100);
  const offset = input.next
    ? decodeOffsetCursor(input.next, 'next')
    : input.prev
      ? Math.max(0, decodeOffsetCursor(input.prev, 'prev'))
      : 0;
  const [first] = parseSort(input.sort);
  if (first && !SORTABLE.has(first.field))
    throw chatError.input(`sort field ${first.field} is not supported`);
  return {
    offset,
    limit,
    descending: first?.direction === -1,
    cursors: (more) => ({
      ...(more ? { next: encodeOffsetCursor(offset + limit) } : {}),
      ...(offset > 0 ? { prev: encodeOffsetCursor(Math.max(0, offset - limit)) } : {}),
    }),
  };
}
