import type { Statement } from 'better-sqlite3';
import type { SqliteStatement } from 'kysely';

/** Turns one row's values, in the statement's column order, into the row object. */
type RowBuilder = (values: readonly unknown[]) => Record<string, unknown>;

/**
 * A prepared statement whose rows all come back with one fast shape.
 *
 * better-sqlite3 builds each row object property by property in C++. Past 19 properties, an object built that way
 * (or by keyed stores in JavaScript) turns into a slow dictionary: every channel and message row was one, and each
 * later read of one of its fields a hash lookup. Rows are read as arrays (`raw`) instead and built by one object
 * literal per statement (`compileRowBuilder`): a channel lookup as a watch makes it, with its row read and
 * serialised, runs 1.7× as fast (`npm run bench:rows`, BENCHMARKS.md "2026-11-28").
 *
 * A statement with a column named `__proto__` keeps better-sqlite3's own rows (which drop that column), since a
 * literal would set the prototype instead.
 */
export function shapedStatement(statement: Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const columns = statement.columns().map((column) => column.name);
  if (columns.includes('__proto__')) return statement;
  const build = compileRowBuilder(columns);
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(build),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const values of statement.iterate(parameters) as IterableIterator<unknown[]>)
        yield build(values);
    },
  };
}

/**
 * A row builder written as one object literal, so every row it builds has the same fast shape.
 *
 * The names come from a statement's own columns (SQL this server wrote, never a request's text) and are written as
 * JSON strings, so no name can be anything but a property name. A repeated name keeps its first place and its last
 * value, as better-sqlite3's own rows do.
 */
export function compileRowBuilder(columns: readonly string[]): RowBuilder {
  const lastIndex = new Map<string, number>();
  columns.forEach((name, index) => lastIndex.set(name, index));
  const fields = [...lastIndex].map(([name, index]) => `${JSON.stringify(name)}: values[${index}]`);
  return new Function('values', `'use strict'; return { ${fields.join(', ')} };`) as RowBuilder;
}
