import { sql, type RawBuilder } from 'kysely';
import { jsonValue } from '../../../db/dialect.ts';
import type { SqlDialectKind } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import { isPrototypeKey } from '../json.ts';
import { CUSTOM_FIELD } from './filter.ts';

export const MAX_SORT_FIELDS = 10;

export interface SortItem {
  field: string;
  direction: 1 | -1;
}

/**
 * Accepts every sort shape the client may send: normalized `[{field, direction}]` (what stream-chat sends),
 * `{field: 1}` or `[{field: -1}, …]`.
 */
export function parseSort(raw: unknown): SortItem[] {
  if (raw === undefined || raw === null) return [];
  const list = Array.isArray(raw) ? raw : [raw];
  const items: SortItem[] = [];
  for (const entry of list) {
    if (typeof entry !== 'object' || entry === null)
      throw chatError.input('sort must be a list of {field, direction}');
    const record = entry as Record<string, unknown>;
    if (typeof record.field === 'string') {
      items.push({ field: record.field, direction: toDirection(record.direction) });
    } else {
      for (const [field, direction] of Object.entries(record))
        items.push({ field, direction: toDirection(direction) });
    }
    // Real clients sort by one to three fields; every item becomes an ORDER BY term.
    if (items.length > MAX_SORT_FIELDS)
      throw chatError.input(`sort may name at most ${MAX_SORT_FIELDS} fields`);
  }
  return items;
}

function toDirection(value: unknown): 1 | -1 {
  if (value === undefined || value === 1 || value === '1') return 1;
  if (value === -1 || value === '-1') return -1;
  throw chatError.input('sort direction must be 1 or -1');
}

export interface SortSchema {
  dialect: SqlDialectKind;
  /** Known sort fields → SQL expression. */
  fields: Record<string, RawBuilder<unknown>>;
  customColumn?: string;
  entity: string;
}

/** ORDER BY items; nulls always sort last (both dialects accept NULLS LAST). */
export function compileSort(items: SortItem[], schema: SortSchema): RawBuilder<unknown>[] {
  return items.map(({ field, direction }) => {
    // Own keys only: `__proto__` or `constructor` must not find Object.prototype's members.
    let expression = Object.hasOwn(schema.fields, field) ? schema.fields[field] : undefined;
    if (!expression) {
      if (!schema.customColumn || !CUSTOM_FIELD.test(field) || isPrototypeKey(field)) {
        throw chatError.input(`field ${field} is not supported for sorting ${schema.entity}`);
      }
      expression = jsonValue(schema.dialect, schema.customColumn, field);
    }
    return direction === 1 ? sql`${expression} asc nulls last` : sql`${expression} desc nulls last`;
  });
}
