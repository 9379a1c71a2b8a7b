import { sql, type RawBuilder } from 'kysely';
import { jsonArrayHasKeyIn, lowerText } from '../../../db/dialect.ts';
import type { SqlDialectKind } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import {
  compileFilter,
  FILTER_LIMITS,
  likePrefix,
  type FieldSpec,
  type Operator,
} from '../../core/query/filter.ts';
import { compileSort, parseSort } from '../../core/query/sort.ts';

export function textMatch(
  dialect: SqlDialectKind,
  op: Operator,
  value: unknown,
): RawBuilder<boolean> {
  const text = lowerText(dialect, sql`m.text`);
  if (typeof value !== 'string' || !value.trim())
    throw chatError.input('text filters need a non-empty string');
  // The search `query` reaches here without the filter's own checks; SQLite caps LIKE patterns at 50 000 bytes.
  if (value.length > FILTER_LIMITS.maxStringLength)
    throw chatError.input(
      `the search text is longer than ${FILTER_LIMITS.maxStringLength} characters`,
    );
  const needle = likePrefix(value.trim().toLocaleLowerCase());
  switch (op) {
    // A plain value (what stream-chat-react's message search sends) and $q are substring matches.
    case '$eq':
    case '$q':
      return sql<boolean>`${text} like ${`%${needle}%`} escape '\\'`;
    case '$autocomplete':
      return sql<boolean>`(${text} like ${`${needle}%`} escape '\\' or ${text} like ${`% ${needle}%`} escape '\\')`;
    default:
      throw chatError.input(`operator ${op} is not supported on text`);
  }
}

function messageFields(dialect: SqlDialectKind): Record<string, FieldSpec> {
  return {
    id: { kind: 'column', ref: 'm.id', type: 'text' },
    type: { kind: 'column', ref: 'm.type', type: 'text' },
    cid: { kind: 'column', ref: 'm.cid', type: 'text' },
    parent_id: { kind: 'column', ref: 'm.parent_id', type: 'text' },
    user_id: { kind: 'column', ref: 'm.user_id', type: 'text' },
    'user.id': { kind: 'column', ref: 'm.user_id', type: 'text' },
    created_at: { kind: 'column', ref: 'm.created_at', type: 'date' },
    updated_at: { kind: 'column', ref: 'm.updated_at', type: 'date' },
    reply_count: { kind: 'column', ref: 'm.reply_count', type: 'number' },
    pinned: { kind: 'column', ref: 'm.pinned', type: 'boolean' },
    silent: { kind: 'column', ref: 'm.silent', type: 'boolean' },
    text: { kind: 'custom', build: (op, value) => textMatch(dialect, op, value) },
    'attachments.type': {
      kind: 'custom',
      build(op, value) {
        const list =
          op === '$in' && Array.isArray(value) ? value : op === '$eq' ? [value] : undefined;
        if (!list || !list.every((v) => typeof v === 'string'))
          throw chatError.input('attachments.type supports $eq and $in with strings');
        return jsonArrayHasKeyIn(dialect, 'm.attachments', 'type', list as string[]);
      },
    },
  };
}

/** The WHERE on messages: the plain-text `query`, or else the message filter. */
export function messageWhere(
  dialect: SqlDialectKind,
  query: unknown,
  filter: unknown,
): RawBuilder<boolean> {
  if (query !== undefined) return textMatch(dialect, '$q', query);
  return compileFilter(filter, {
    dialect,
    entity: 'messages',
    customColumn: 'm.custom',
    fields: messageFields(dialect),
  });
}

/** The ORDER BY of a search; relevance is not scored, so it sorts as recency. */
export function messageOrder(dialect: SqlDialectKind, sort: unknown): RawBuilder<unknown>[] {
  const sortItems = parseSort(sort).map((item) =>
    item.field === 'relevance' ? { ...item, field: 'created_at' } : item,
  );
  return compileSort(sortItems.length > 0 ? sortItems : [{ field: 'created_at', direction: -1 }], {
    dialect,
    entity: 'messages',
    customColumn: 'm.custom',
    fields: {
      created_at: sql`m.created_at`,
      updated_at: sql`m.updated_at`,
      id: sql`m.id`,
      reply_count: sql`m.reply_count`,
    },
  });
}
