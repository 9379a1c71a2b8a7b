import SQLite from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compileRowBuilder, shapedStatement } from './row-builder.ts';

describe('a row builder', () => {
  it('gives each call a new row with the columns in order, a repeated name at its first place with its last value', () => {
    const build = compileRowBuilder(['id', 'name', 'id', 'role']);
    const first = build(['a', 'Ana', 'b', 'user']);
    const second = build(['c', 'Cúc', 'd', 'admin']);
    expect(first).toEqual({ id: 'b', name: 'Ana', role: 'user' });
    expect(Object.keys(first)).toEqual(['id', 'name', 'role']);
    expect(second).toEqual({ id: 'd', name: 'Cúc', role: 'admin' });
    expect(second).not.toBe(first);
    expect(Object.getPrototypeOf(first)).toBe(Object.prototype);
  });

  it('builds a row as wide as any table, every column with its value', () => {
    const columns = Array.from({ length: 40 }, (_, index) => `column_${index}`);
    const values = columns.map((_, index) => (index % 2 === 0 ? index : `value ${index}`));
    const row = compileRowBuilder(columns)(values);
    expect(Object.entries(row)).toEqual(columns.map((name, index) => [name, values[index]]));
  });
});

describe('a shaped statement', () => {
  let database: SQLite.Database;
  beforeEach(() => {
    database = new SQLite(':memory:');
    database.exec('create table notes (id integer primary key, text text)');
  });
  afterEach(() => database.close());

  const wide = Array.from({ length: 30 }, (_, index) => `${index} as c${index}`).join(', ');

  it('gives the rows better-sqlite3 gives, from all and from iterate', () => {
    database.exec("insert into notes (text) values ('một'), ('hai')");
    const sql = `select notes.*, ${wide} from notes order by id`;
    const expected = database.prepare(sql).all();
    const statement = shapedStatement(database.prepare(sql));
    expect(statement.reader).toBe(true);
    expect(statement.all([])).toEqual(expected);
    expect([...statement.iterate([])]).toEqual(expected);
    expect(Object.keys(statement.all([])[0] as object)).toEqual(Object.keys(expected[0] as object));
  });

  it('runs a write as better-sqlite3 does', () => {
    const statement = shapedStatement(database.prepare('insert into notes (text) values (?)'));
    expect(statement.reader).toBe(false);
    expect(statement.run(['ba'])).toMatchObject({ changes: 1, lastInsertRowid: 1 });
    expect(database.prepare('select text from notes').all()).toEqual([{ text: 'ba' }]);
  });
});
