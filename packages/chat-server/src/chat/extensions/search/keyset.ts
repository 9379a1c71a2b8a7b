import { sql, type RawBuilder } from 'kysely';
import { jsonValue } from '../../../db/dialect.ts';
import type { SqlDialectKind } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { isPrototypeKey } from '../../core/json.ts';
import { CUSTOM_FIELD } from '../../core/query/filter.ts';
import { parseSort, type SortItem } from '../../core/query/sort.ts';
import { MSG } from './message-filter.ts';

/*
 * Search pages follow a keyset cursor: `next` carries the sort and the sort keys of the last message returned, and
 * the next page starts strictly after it. A message stored meanwhile falls where its keys put it, so no result is
 * repeated or skipped, unlike an offset, which shifts by one with every newer match. `previous` is the same cursor
 * at the first message returned, marked `backward`: that page is read in the reverse order, strictly before it, and
 * turned around, so it holds the messages just before, in the request's order.
 */

/** Without a sort: best matches first, then newer messages. */
export const DEFAULT_SORT: SortItem[] = [
  { field: 'relevance', direction: -1 },
  { field: 'created_at', direction: -1 },
];

/** One ORDER BY key: its SQL, its direction, and how a value read back from a row is compared with it. */
export interface SortKey {
  expression: RawBuilder<unknown>;
  direction: 1 | -1;
  param(value: unknown): RawBuilder<unknown>;
}

export interface Cursor {
  sort: SortItem[];
  keys: unknown[];
  id: string;
  /** A `previous` cursor: the page before the message it names. */
  backward?: boolean;
}

const COLUMNS = new Set(['created_at', 'updated_at', 'id', 'reply_count']);

export function readSort(raw: unknown): SortItem[] {
  const items = parseSort(raw);
  return items.length > 0 ? items : DEFAULT_SORT;
}

/** The ORDER BY keys of `items`; `relevance` is the score of the searched text (0 when there is none). */
export function sortKeys(
  dialect: SqlDialectKind,
  items: SortItem[],
  relevance: RawBuilder<number>,
): SortKey[] {
  const plain = (value: unknown) => sql`${value as string | number | null}`;
  return items.map(({ field, direction }) => {
    if (field === 'relevance') return { expression: relevance, direction, param: plain };
    if (COLUMNS.has(field))
      return { expression: sql.ref(`${MSG}.${field}`), direction, param: plain };
    if (!CUSTOM_FIELD.test(field) || isPrototypeKey(field))
      throw chatError.input(`field ${field} is not supported for sorting messages`);
    const expression = jsonValue(dialect, `${MSG}.custom`, field);
    const param =
      dialect === 'sqlite'
        ? plain
        : (value: unknown) => sql`cast(${JSON.stringify(value ?? null)} as jsonb)`;
    return { expression, direction, param };
  });
}

/**
 * ORDER BY: the keys, nulls last, then the message id so equal keys still have one order; `backward` is exactly that
 * order reversed (a `previous` page is read this way).
 */
export function orderBy(keys: SortKey[], backward = false): RawBuilder<unknown>[] {
  return [
    ...keys.map(({ expression, direction }) => sortTerm(expression, direction, backward)),
    sql`${sql.ref(`${MSG}.id`)} ${sql.raw(backward ? 'desc' : 'asc')}`,
  ];
}

/** One ORDER BY term: `direction` nulls last, or all of it reversed. */
export function sortTerm(
  expression: RawBuilder<unknown>,
  direction: 1 | -1,
  backward: boolean,
): RawBuilder<unknown> {
  const ascending = (direction === 1) !== backward;
  return sql`${expression} ${sql.raw(ascending ? 'asc' : 'desc')} nulls ${sql.raw(backward ? 'first' : 'last')}`;
}

/** SQL: the row sorts strictly after the cursor's row (the same order as `orderBy`). */
export function after(keys: SortKey[], cursor: Cursor): RawBuilder<boolean> {
  const branches: RawBuilder<boolean>[] = [];
  const equal: RawBuilder<boolean>[] = [];
  keys.forEach((key, i) => {
    const value = cursor.keys[i] ?? null;
    if (value !== null) {
      const op = sql.raw(key.direction === 1 ? '>' : '<');
      branches.push(
        sql<boolean>`(${sql.join([...equal, sql<boolean>`(${key.expression} ${op} ${key.param(value)} or ${key.expression} is null)`], sql` and `)})`,
      );
      equal.push(sql<boolean>`${key.expression} = ${key.param(value)}`);
    } else {
      // Nulls sort last: nothing but another null follows a null.
      equal.push(sql<boolean>`${key.expression} is null`);
    }
  });
  branches.push(
    sql<boolean>`(${sql.join([...equal, sql<boolean>`${sql.ref(`${MSG}.id`)} > ${cursor.id}`], sql` and `)})`,
  );
  return sql<boolean>`(${sql.join(branches, sql` or `)})`;
}

/** SQL: the row sorts strictly before the cursor's row (in the order of `orderBy`, not reversed). */
export function before(keys: SortKey[], cursor: Cursor): RawBuilder<boolean> {
  const branches: RawBuilder<boolean>[] = [];
  const equal: RawBuilder<boolean>[] = [];
  keys.forEach((key, i) => {
    const value = cursor.keys[i] ?? null;
    // Nulls sort last: every non-null value comes before a null, and no null comes before a value.
    const earlier =
      value === null
        ? sql<boolean>`${key.expression} is not null`
        : sql<boolean>`${key.expression} ${sql.raw(key.direction === 1 ? '<' : '>')} ${key.param(value)}`;
    branches.push(sql<boolean>`(${sql.join([...equal, earlier], sql` and `)})`);
    equal.push(
      value === null
        ? sql<boolean>`${key.expression} is null`
        : sql<boolean>`${key.expression} = ${key.param(value)}`,
    );
  });
  branches.push(
    sql<boolean>`(${sql.join([...equal, sql<boolean>`${sql.ref(`${MSG}.id`)} < ${cursor.id}`], sql` and `)})`,
  );
  return sql<boolean>`(${sql.join(branches, sql` or `)})`;
}

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

export function decodeCursor(value: string): Cursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    throw chatError.input('next is not a valid cursor');
  }
  const cursor = parsed as Partial<Cursor> | null;
  if (
    !cursor ||
    typeof cursor.id !== 'string' ||
    !Array.isArray(cursor.keys) ||
    !Array.isArray(cursor.sort) ||
    cursor.keys.length !== cursor.sort.length
  )
    throw chatError.input('next is not a valid cursor');
  return {
    sort: parseSort(cursor.sort),
    keys: cursor.keys,
    id: cursor.id,
    ...(cursor.backward === true ? { backward: true } : {}),
  };
}
