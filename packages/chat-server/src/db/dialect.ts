import { foldTranslation } from '@daohuu/domain';
import { sql, type RawBuilder } from 'kysely';
import type { SqlDialectKind } from './schema.ts';

/*
 * The only dialect-specific SQL in the package: reading keys of the JSON text columns. Everything else (upserts,
 * NULLS LAST, LIKE on pre-lowered columns) is written once in SQL both SQLite and PostgreSQL accept.
 */

function jsonPath(key: string): string {
  return `$."${key.replace(/"/g, '')}"`;
}

/**
 * Unicode-aware lower case. PostgreSQL's lower() folds every letter; SQLite's folds ASCII only, so SQLite connections
 * get `unicode_lower` (JavaScript's toLocaleLowerCase, registered in create-db.ts) and "Đan" matches "đan".
 */
export function lowerText(
  dialect: SqlDialectKind,
  expression: RawBuilder<unknown>,
): RawBuilder<string> {
  return dialect === 'sqlite'
    ? sql<string>`unicode_lower(${expression})`
    : sql<string>`lower(${expression})`;
}

const FOLD = foldTranslation();

/**
 * Text folded like `foldVietnamese` (@daohuu/domain): lower case, no diacritics, "d" for "đ", so "dao" matches
 * "Đạo". SQLite calls the JavaScript rule itself (`fold_vi`, registered in create-db.ts); PostgreSQL maps the same
 * letters with translate().
 */
export function foldedText(
  dialect: SqlDialectKind,
  expression: RawBuilder<unknown>,
): RawBuilder<string> {
  return dialect === 'sqlite'
    ? sql<string>`fold_vi(${expression})`
    : sql<string>`lower(translate(${expression}, ${FOLD.from}, ${FOLD.to}))`;
}

/** The JSON value under `key`, comparable with `jsonParam` values (numbers, strings, booleans). */
export function jsonValue(
  dialect: SqlDialectKind,
  column: string,
  key: string,
): RawBuilder<unknown> {
  return dialect === 'sqlite'
    ? sql`json_extract(${sql.ref(column)}, ${jsonPath(key)})`
    : sql`(${sql.ref(column)}::jsonb -> ${key})`;
}

/** The JSON value under `key` as text (for LIKE). */
export function jsonText(
  dialect: SqlDialectKind,
  column: string,
  key: string,
): RawBuilder<unknown> {
  return dialect === 'sqlite'
    ? sql`cast(json_extract(${sql.ref(column)}, ${jsonPath(key)}) as text)`
    : sql`(${sql.ref(column)}::jsonb ->> ${key})`;
}

/** A parameter comparable with `jsonValue`. */
export function jsonParam(
  dialect: SqlDialectKind,
  value: string | number | boolean | null,
): RawBuilder<unknown> {
  if (dialect === 'sqlite') return sql`${typeof value === 'boolean' ? (value ? 1 : 0) : value}`;
  return sql`cast(${JSON.stringify(value)} as jsonb)`;
}

/** True when the JSON document has `key` (even with a null value). */
export function jsonHas(dialect: SqlDialectKind, column: string, key: string): RawBuilder<boolean> {
  return dialect === 'sqlite'
    ? sql<boolean>`(json_type(${sql.ref(column)}, ${jsonPath(key)}) is not null)`
    : sql<boolean>`(${sql.ref(column)}::jsonb -> ${key} is not null)`;
}

/** True when the JSON array column holds one of `values` as a plain string (e.g. mentioned user ids). */
export function jsonArrayHasIn(
  dialect: SqlDialectKind,
  column: string,
  values: string[],
): RawBuilder<boolean> {
  if (values.length === 0) return sql<boolean>`1 = 0`;
  const list = sql.join(values);
  return dialect === 'sqlite'
    ? sql<boolean>`exists (select 1 from json_each(${sql.ref(column)}) je where je.value in (${list}))`
    : sql<boolean>`exists (select 1 from jsonb_array_elements_text(${sql.ref(column)}::jsonb) je where je in (${list}))`;
}

/** True when the JSON array column holds an object whose `key` is one of `values` (e.g. attachments.type). */
export function jsonArrayHasKeyIn(
  dialect: SqlDialectKind,
  column: string,
  key: string,
  values: string[],
): RawBuilder<boolean> {
  if (values.length === 0) return sql<boolean>`1 = 0`;
  const list = sql.join(values);
  return dialect === 'sqlite'
    ? sql<boolean>`exists (select 1 from json_each(${sql.ref(column)}) je where json_extract(je.value, ${jsonPath(key)}) in (${list}))`
    : sql<boolean>`exists (select 1 from jsonb_array_elements(${sql.ref(column)}::jsonb) je where je ->> ${key} in (${list}))`;
}
