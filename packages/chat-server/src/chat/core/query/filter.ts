import { sql, type RawBuilder } from 'kysely';
import { foldVietnamese } from '@daohuu/domain';
import {
  foldedText,
  jsonArrayHasIn,
  jsonHas,
  jsonParam,
  jsonText,
  jsonValue,
} from '../../../db/dialect.ts';
import type { SqlDialectKind } from '../../../db/schema.ts';
import { normalizeIso } from '../../../db/clock.ts';
import { chatError } from '../../../errors.ts';
import { isPrototypeKey } from '../json.ts';

/**
 * Compiles Stream's MongoDB-style filter objects into SQL. Every entity (channels, users, members, threads…)
 * declares which fields it accepts and how each maps to SQL; unknown fields go to the entity's JSON custom column
 * when it has one, and unknown operators are a code 4 input error.
 */

export type Scalar = string | number | boolean | null;
export type Operator =
  | '$eq'
  | '$ne'
  | '$in'
  | '$nin'
  | '$gt'
  | '$gte'
  | '$lt'
  | '$lte'
  | '$exists'
  | '$autocomplete'
  | '$contains'
  | '$q';

const OPERATORS = new Set<string>([
  '$eq',
  '$ne',
  '$in',
  '$nin',
  '$gt',
  '$gte',
  '$lt',
  '$lte',
  '$exists',
  '$autocomplete',
  '$contains',
  '$q',
]);

export type ColumnType = 'text' | 'number' | 'boolean' | 'date';

export type FieldSpec =
  /** A plain column. Booleans are stored as 0/1, dates as ISO text; `search` columns are stored lower-cased. */
  | { kind: 'column'; ref: string; type: ColumnType; lowercased?: boolean; nullable?: boolean }
  /** A field with its own SQL (e.g. `members` → EXISTS on the members table). */
  | { kind: 'custom'; build: (op: Operator, value: unknown) => RawBuilder<boolean> };

export interface FilterSchema {
  dialect: SqlDialectKind;
  fields: Record<string, FieldSpec>;
  /** JSON text column holding custom data; unknown fields are looked up there. Omit to reject unknown fields. */
  customColumn?: string;
  entity: string;
}

const INT32_MAX = 2_147_483_647;
/** Names of custom-data fields a filter or sort may look up (they become JSON paths). */
export const CUSTOM_FIELD = /^[A-Za-z0-9_.-]{1,64}$/;
const TRUE = sql<boolean>`1 = 1`;
const FALSE = sql<boolean>`1 = 0`;

/**
 * How large a filter may be. Real clients send a handful of conditions; these caps keep the SQL built from a filter
 * within what both databases parse (SQLite refuses expression trees deeper than 1000 and more than 32766 parameters).
 * They are checked on the whole filter before any SQL is built, so the caps are what a client is told about.
 */
export const FILTER_LIMITS = {
  /** Nesting of $and / $or / $nor. */
  maxDepth: 8,
  /** Entries in one $and / $or / $nor. */
  maxBranches: 100,
  /** Field conditions in the whole filter (`{a: 1, b: {$gt: 2, $lt: 5}}` counts 3). */
  maxConditions: 100,
  /** Values in one $in / $nin / list (the client's state recovery sends every active channel in one `cid $in`). */
  maxListValues: 1000,
  /** List values in the whole filter. */
  maxValues: 2000,
  /** Characters in one string value (SQLite refuses LIKE patterns over 50 000 bytes). */
  maxStringLength: 5000,
} as const;

export function compileFilter(filter: unknown, schema: FilterSchema): RawBuilder<boolean> {
  assertFilterLimits(filter);
  return compileLevel(filter, schema);
}

/** Refuses a filter beyond FILTER_LIMITS with code 4; shape errors are left to the compiler. Iterative on purpose. */
function assertFilterLimits(filter: unknown): void {
  const { maxDepth, maxBranches, maxConditions, maxListValues, maxValues, maxStringLength } =
    FILTER_LIMITS;
  let conditions = 0;
  let values = 0;
  const pending: [unknown, number][] = [[filter, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop()!;
    if (typeof node !== 'object' || node === null || Array.isArray(node)) continue;
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === '$and' || key === '$or' || key === '$nor') {
        if (!Array.isArray(value)) continue;
        if (depth >= maxDepth)
          throw chatError.input(
            `filter_conditions nests $and/$or/$nor too deeply (at most ${maxDepth} levels)`,
          );
        if (value.length > maxBranches)
          throw chatError.input(
            `${key} has ${value.length} entries; at most ${maxBranches} are allowed`,
          );
        for (const child of value) pending.push([child, depth + 1]);
        continue;
      }
      const operands = isOperatorObject(value) ? Object.values(value) : [value];
      for (const operand of operands) {
        conditions += 1;
        if (conditions > maxConditions)
          throw chatError.input(`filter_conditions has more than ${maxConditions} conditions`);
        const list = Array.isArray(operand) ? operand : [operand];
        if (list.length > maxListValues)
          throw chatError.input(
            `the list for field ${key} has ${list.length} values; at most ${maxListValues} are allowed`,
          );
        if (Array.isArray(operand)) values += list.length;
        if (values > maxValues)
          throw chatError.input(`filter_conditions has more than ${maxValues} values in all`);
        if (list.some((item) => typeof item === 'string' && item.length > maxStringLength))
          throw chatError.input(
            `a value for field ${key} is longer than ${maxStringLength} characters`,
          );
      }
    }
  }
}

function compileLevel(filter: unknown, schema: FilterSchema): RawBuilder<boolean> {
  if (filter === undefined || filter === null) return TRUE;
  if (typeof filter !== 'object' || Array.isArray(filter))
    throw chatError.input('filter_conditions must be an object');
  const parts: RawBuilder<boolean>[] = [];
  for (const [key, value] of Object.entries(filter as Record<string, unknown>)) {
    if (key === '$and' || key === '$or' || key === '$nor') {
      if (!Array.isArray(value) || value.length === 0)
        throw chatError.input(`${key} must be a non-empty array`);
      const children = value.map((child) => compileLevel(child, schema));
      if (key === '$and') parts.push(and(children));
      else if (key === '$or') parts.push(or(children));
      else parts.push(sql<boolean>`not ${or(children)}`);
      continue;
    }
    if (key.startsWith('$')) throw chatError.input(`unknown filter operator ${key}`);
    parts.push(compileField(key, value, schema));
  }
  return and(parts);
}

function and(parts: RawBuilder<boolean>[]): RawBuilder<boolean> {
  if (parts.length === 0) return TRUE;
  if (parts.length === 1) return parts[0]!;
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

function or(parts: RawBuilder<boolean>[]): RawBuilder<boolean> {
  if (parts.length === 0) return FALSE;
  if (parts.length === 1) return parts[0]!;
  return sql<boolean>`(${sql.join(parts, sql` or `)})`;
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function compileField(
  field: string,
  condition: unknown,
  schema: FilterSchema,
): RawBuilder<boolean> {
  const ops: [string, unknown][] = isOperatorObject(condition)
    ? Object.entries(condition)
    : [['$eq', condition]];
  const parts = ops.map(([op, value]) => {
    if (!OPERATORS.has(op)) throw chatError.input(`unknown operator ${op} on field ${field}`);
    return compileCondition(field, op as Operator, value, schema);
  });
  return and(parts);
}

function compileCondition(
  field: string,
  op: Operator,
  value: unknown,
  schema: FilterSchema,
): RawBuilder<boolean> {
  // Own keys only: a field named `constructor` must not find Object.prototype's.
  const spec = Object.hasOwn(schema.fields, field) ? schema.fields[field] : undefined;
  if (spec?.kind === 'custom') return spec.build(op, value);
  if (spec?.kind === 'column') return columnCondition(field, spec, op, value, schema.dialect);
  if (!schema.customColumn || !CUSTOM_FIELD.test(field) || isPrototypeKey(field)) {
    throw chatError.input(`field ${field} is not supported for filtering ${schema.entity}`);
  }
  return jsonCondition(field, schema.customColumn, schema.dialect, op, value);
}

function toScalar(field: string, type: ColumnType, value: unknown): Scalar {
  if (value === null) return null;
  switch (type) {
    case 'boolean':
      if (typeof value !== 'boolean') throw chatError.input(`field ${field} expects a boolean`);
      return value ? 1 : 0;
    case 'number':
      // Number columns are 32-bit integers: PostgreSQL refuses anything else as a parameter for them.
      if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > INT32_MAX)
        throw chatError.input(`field ${field} expects an integer`);
      return value;
    case 'date': {
      if (typeof value !== 'string' && typeof value !== 'number')
        throw chatError.input(`field ${field} expects a date`);
      const iso = normalizeIso(value);
      if (!iso) throw chatError.input(`field ${field} expects a date`);
      return iso;
    }
    case 'text':
      if (typeof value !== 'string' && typeof value !== 'number')
        throw chatError.input(`field ${field} expects a string`);
      return String(value);
  }
}

function listOf(field: string, op: string, value: unknown): unknown[] {
  if (!Array.isArray(value)) throw chatError.input(`${op} on field ${field} expects an array`);
  return value;
}

/**
 * A field holding a JSON list of strings (a user's teams, a message's mentioned user ids) filtered as Stream does:
 * rows whose list holds one value (`$eq`, `$contains`) or any of several (`$in`).
 */
export function jsonListField(
  dialect: SqlDialectKind,
  column: string,
  what: { field: string; values: string },
): FieldSpec {
  return {
    kind: 'custom',
    build(op, value) {
      const list =
        op === '$in' && Array.isArray(value)
          ? value
          : op === '$eq' || op === '$contains'
            ? [value]
            : undefined;
      if (!list || !list.every((item) => typeof item === 'string'))
        throw chatError.input(`${what.field} supports $in, $eq and $contains with ${what.values}`);
      return jsonArrayHasIn(dialect, column, list as string[]);
    },
  };
}

/** Escapes LIKE wildcards; the pattern uses `\` as escape character. */
export function likePrefix(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Word-prefix match as Vietnamese users type: case-, accent- and đ/d-insensitive, so "kim" and "dan" both match
 * "Kim Đan", and "dao k" matches "Đạo Kim".
 */
function autocomplete(
  dialect: SqlDialectKind,
  column: RawBuilder<unknown>,
  query: string,
): RawBuilder<boolean> {
  const needle = likePrefix(foldVietnamese(query).trim());
  if (!needle) return FALSE;
  const target = foldedText(dialect, column);
  return sql<boolean>`(${target} like ${`${needle}%`} escape '\\' or ${target} like ${`% ${needle}%`} escape '\\')`;
}

function columnCondition(
  field: string,
  spec: Extract<FieldSpec, { kind: 'column' }>,
  op: Operator,
  value: unknown,
  dialect: SqlDialectKind,
) {
  const column = sql.ref(spec.ref);
  const lower = (v: Scalar) =>
    spec.lowercased && typeof v === 'string' ? v.toLocaleLowerCase() : v;
  switch (op) {
    case '$eq': {
      const v = lower(toScalar(field, spec.type, value));
      return v === null ? sql<boolean>`${column} is null` : sql<boolean>`${column} = ${v}`;
    }
    case '$ne': {
      const v = lower(toScalar(field, spec.type, value));
      return v === null
        ? sql<boolean>`${column} is not null`
        : sql<boolean>`(${column} is null or ${column} <> ${v})`;
    }
    case '$in':
    case '$nin': {
      const values = listOf(field, op, value).map((v) => lower(toScalar(field, spec.type, v)));
      if (values.length === 0) return op === '$in' ? FALSE : TRUE;
      const list = sql.join(values.map((v) => sql`${v}`));
      return op === '$in'
        ? sql<boolean>`${column} in (${list})`
        : sql<boolean>`(${column} is null or ${column} not in (${list}))`;
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const v = lower(toScalar(field, spec.type, value));
      if (v === null) throw chatError.input(`${op} on field ${field} expects a value`);
      return sql<boolean>`${column} ${sql.raw(comparison(op))} ${v}`;
    }
    case '$exists':
      if (typeof value !== 'boolean')
        throw chatError.input(`$exists on field ${field} expects a boolean`);
      return value ? sql<boolean>`${column} is not null` : sql<boolean>`${column} is null`;
    case '$autocomplete':
    case '$q':
      if (typeof value !== 'string')
        throw chatError.input(`${op} on field ${field} expects a string`);
      return autocomplete(dialect, column, value);
    case '$contains':
      throw chatError.input(`$contains is not supported on field ${field}`);
  }
}

function comparison(op: '$gt' | '$gte' | '$lt' | '$lte'): string {
  return { $gt: '>', $gte: '>=', $lt: '<', $lte: '<=' }[op];
}

function jsonScalar(field: string, value: unknown): Scalar {
  if (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean'
  )
    return value;
  throw chatError.input(`field ${field} expects a string, number or boolean`);
}

function jsonCondition(
  field: string,
  column: string,
  dialect: SqlDialectKind,
  op: Operator,
  value: unknown,
) {
  const target = jsonValue(dialect, column, field);
  switch (op) {
    case '$eq': {
      const v = jsonScalar(field, value);
      return v === null
        ? sql<boolean>`${target} is null`
        : sql<boolean>`${target} = ${jsonParam(dialect, v)}`;
    }
    case '$ne': {
      const v = jsonScalar(field, value);
      return v === null
        ? sql<boolean>`${target} is not null`
        : sql<boolean>`(${target} is null or ${target} <> ${jsonParam(dialect, v)})`;
    }
    case '$in':
    case '$nin': {
      const values = listOf(field, op, value).map((v) => jsonParam(dialect, jsonScalar(field, v)));
      if (values.length === 0) return op === '$in' ? FALSE : TRUE;
      const list = sql.join(values);
      return op === '$in'
        ? sql<boolean>`${target} in (${list})`
        : sql<boolean>`(${target} is null or ${target} not in (${list}))`;
    }
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte': {
      const v = jsonScalar(field, value);
      if (v === null) throw chatError.input(`${op} on field ${field} expects a value`);
      return sql<boolean>`${target} ${sql.raw(comparison(op))} ${jsonParam(dialect, v)}`;
    }
    case '$exists':
      if (typeof value !== 'boolean')
        throw chatError.input(`$exists on field ${field} expects a boolean`);
      return value
        ? jsonHas(dialect, column, field)
        : sql<boolean>`not ${jsonHas(dialect, column, field)}`;
    case '$autocomplete':
    case '$q':
      if (typeof value !== 'string')
        throw chatError.input(`${op} on field ${field} expects a string`);
      return autocomplete(dialect, jsonText(dialect, column, field), value);
    case '$contains':
      throw chatError.input(`$contains is not supported on field ${field}`);
  }
}
