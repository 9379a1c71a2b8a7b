import { sql, type RawBuilder } from 'kysely';
import { jsonArrayHasKeyIn } from '../../../db/dialect.ts';
import type { SqlDialectKind } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { isPlainObject } from '../../core/json.ts';
import {
  compileFilter,
  jsonListField,
  type FieldSpec,
  type Operator,
} from '../../core/query/filter.ts';
import { readTextQuery, textMatches, type TextQuery } from './text-query.ts';

/** The alias of the searched messages in every query of this extension. */
export const MSG = 'sm';
const col = (name: string) => `${MSG}.${name}`;

function textCondition(dialect: SqlDialectKind, op: Operator, value: unknown) {
  // A plain value (what stream-chat-react's message search sends), $q and $autocomplete all match words as typed.
  if (op !== '$eq' && op !== '$q' && op !== '$autocomplete')
    throw chatError.input(`operator ${op} is not supported on text`);
  return textMatches(dialect, MSG, readTextQuery(value));
}

function attachmentsType(dialect: SqlDialectKind, op: Operator, value: unknown) {
  const list = op === '$in' && Array.isArray(value) ? value : op === '$eq' ? [value] : undefined;
  if (!list || !list.every((v) => typeof v === 'string'))
    throw chatError.input('attachments.type supports $eq and $in with strings');
  return jsonArrayHasKeyIn(dialect, col('attachments'), 'type', list as string[]);
}

function attachmentsExist(op: Operator, value: unknown) {
  if (op !== '$exists' || typeof value !== 'boolean')
    throw chatError.input('attachments supports $exists with a boolean');
  const has = sql<boolean>`(${sql.ref(col('attachments'))} <> '[]')`;
  return value ? has : sql<boolean>`not ${has}`;
}

function messageFields(dialect: SqlDialectKind): Record<string, FieldSpec> {
  const column = (name: string, type: 'text' | 'date' | 'number' | 'boolean') =>
    ({ kind: 'column', ref: col(name), type }) as const;
  return {
    id: column('id', 'text'),
    type: column('type', 'text'),
    cid: column('cid', 'text'),
    parent_id: { ...column('parent_id', 'text'), nullable: true },
    user_id: column('user_id', 'text'),
    'user.id': column('user_id', 'text'),
    created_at: column('created_at', 'date'),
    updated_at: column('updated_at', 'date'),
    reply_count: column('reply_count', 'number'),
    pinned: column('pinned', 'boolean'),
    silent: column('silent', 'boolean'),
    text: { kind: 'custom', build: (op, value) => textCondition(dialect, op, value) },
    'attachments.type': {
      kind: 'custom',
      build: (op, value) => attachmentsType(dialect, op, value),
    },
    attachments: { kind: 'custom', build: (op, value) => attachmentsExist(op, value) },
    // Messages that mention a user: `$contains`, as Stream's docs search, or any of several with `$in`.
    'mentioned_users.id': jsonListField(dialect, col('mentioned_users'), {
      field: 'mentioned_users.id',
      values: 'user ids',
    }),
  };
}

function compileMessageFilter(dialect: SqlDialectKind, filter: unknown): RawBuilder<boolean> {
  return compileFilter(filter, {
    dialect,
    entity: 'messages',
    customColumn: col('custom'),
    fields: messageFields(dialect),
  });
}

/** The WHERE on messages: the plain-text `query`, or else the message filter. */
export function messageWhere(
  dialect: SqlDialectKind,
  query: unknown,
  filter: unknown,
): RawBuilder<boolean> {
  if (query !== undefined) return textMatches(dialect, MSG, readTextQuery(query));
  return compileMessageFilter(dialect, filter);
}

/**
 * The searched text every result must match and that an index lookup can therefore lead with: the `query`, or a
 * filter's top-level `text` given as a value, `$eq`, `$q` or `$autocomplete` (what stream-chat-react sends, beside
 * other conditions ANDed to it). Null when the text hides inside `$or`/`$and` or there is none.
 */
export function leadingText(query: unknown, filter: unknown): TextQuery | null {
  if (query !== undefined) return readTextQuery(query);
  if (!isPlainObject(filter) || filter.text === undefined) return null;
  const text = filter.text;
  if (typeof text === 'string') return readTextQuery(text);
  if (!isPlainObject(text)) return null;
  const ops = Object.keys(text);
  if (ops.length !== 1 || !['$eq', '$q', '$autocomplete'].includes(ops[0]!)) return null;
  return readTextQuery(text[ops[0]!]);
}

/**
 * The WHERE on messages once an index lookup already applies the leading text: the filter's other conditions (the
 * whole filter is compiled first, so its errors are the same as without the lookup).
 */
export function whereBesideText(
  dialect: SqlDialectKind,
  query: unknown,
  filter: unknown,
): RawBuilder<boolean>[] {
  if (query !== undefined) return [];
  compileMessageFilter(dialect, filter);
  const rest = { ...(filter as Record<string, unknown>) };
  delete rest.text;
  return Object.keys(rest).length > 0 ? [compileMessageFilter(dialect, rest)] : [];
}

/**
 * Whether every result must match a searched text (the `query`, or a `text` condition at the top level of the
 * filter): then the text index finds the candidates, rather than the channels' messages being read one by one.
 */
export function textDriven(query: unknown, filter: unknown): boolean {
  return query !== undefined || (isPlainObject(filter) && filter.text !== undefined);
}

/** The text a filter searches for (its first `text` condition, at any depth), which relevance ranks by. */
function filterText(filter: unknown, depth = 0): unknown {
  if (depth > 8) return undefined;
  if (Array.isArray(filter)) {
    for (const item of filter) {
      const found = filterText(item, depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (!isPlainObject(filter)) return undefined;
  for (const [key, value] of Object.entries(filter)) {
    if (key === 'text') {
      if (typeof value === 'string') return value;
      if (isPlainObject(value)) return value.$q ?? value.$autocomplete ?? value.$eq;
    }
    if (key === '$and' || key === '$or') {
      const found = filterText(value, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The searched text that ranks the results, if the request has one. */
export function rankedText(query: unknown, filter: unknown): TextQuery | null {
  const text = query !== undefined ? query : filterText(filter);
  if (typeof text !== 'string' || !text.trim()) return null;
  return readTextQuery(text);
}
