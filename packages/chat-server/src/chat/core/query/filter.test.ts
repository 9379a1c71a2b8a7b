import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatError } from '../../../errors.ts';
import { createTestDb, dialectName, type TestDb } from '../../../testing/test-db.ts';
import { compileFilter, type FilterSchema } from './filter.ts';
import { compileSort, parseSort } from './sort.ts';

const people = [
  {
    id: 'han-lap',
    name: 'Hàn Lập',
    role: 'user',
    created_at: '2024-01-01T00:00:00.000000Z',
    custom: { tu_vi: 120, sect: 'Hoàng Phong Cốc', elder: false },
  },
  {
    id: 'diep-pham',
    name: 'Diệp Phàm',
    role: 'admin',
    created_at: '2024-01-02T00:00:00.000000Z',
    custom: { tu_vi: 5000, sect: 'Hoang Cổ', elder: true },
  },
  {
    id: 'tieu-viem',
    name: 'Tiêu Viêm',
    role: 'user',
    created_at: '2024-01-03T00:00:00.000000Z',
    custom: { tu_vi: 90, hieu: 'Đấu Khí Đại Lục' },
  },
  {
    id: 'dao-kim',
    name: 'Đạo Kim Sơn',
    role: 'moderator',
    created_at: '2024-01-04T00:00:00.000000Z',
    custom: { sect: 'kim_100%' },
  },
];

describe(`${dialectName()}: filter compiler`, () => {
  let db: TestDb;
  let schema: FilterSchema;

  beforeAll(async () => {
    db = await createTestDb();
    for (const p of people) {
      await db.db
        .insertInto('users')
        .values({
          app_id: db.appId,
          id: p.id,
          role: p.role,
          name: p.name,
          name_search: p.name.toLocaleLowerCase(),
          language: '',
          custom: JSON.stringify(p.custom),
          teams: '[]',
          banned: 0,
          invisible: 0,
          created_at: p.created_at,
          updated_at: p.created_at,
        })
        .execute();
    }
    schema = {
      dialect: db.kind,
      entity: 'users',
      customColumn: 'custom',
      fields: {
        id: { kind: 'column', ref: 'id', type: 'text' },
        role: { kind: 'column', ref: 'role', type: 'text' },
        name: { kind: 'column', ref: 'name_search', type: 'text', lowercased: true },
        created_at: { kind: 'column', ref: 'created_at', type: 'date' },
        banned: { kind: 'column', ref: 'banned', type: 'boolean' },
      },
    };
  });
  afterAll(async () => {
    await db.close();
  });

  async function ids(
    filter: unknown,
    sort: unknown = [{ field: 'id', direction: 1 }],
  ): Promise<string[]> {
    let query = db.db
      .selectFrom('users')
      .select('id')
      .where('app_id', '=', db.appId)
      .where(compileFilter(filter, schema));
    for (const order of compileSort(parseSort(sort), {
      dialect: db.kind,
      entity: 'users',
      customColumn: 'custom',
      fields: { id: sql`id`, name: sql`name_search` },
    })) {
      query = query.orderBy(order);
    }
    return (await query.execute()).map((r) => r.id);
  }

  it.each([
    ['implicit equality', { role: 'user' }, ['han-lap', 'tieu-viem']],
    ['$eq', { id: { $eq: 'diep-pham' } }, ['diep-pham']],
    ['$ne', { role: { $ne: 'user' } }, ['dao-kim', 'diep-pham']],
    ['$in', { id: { $in: ['han-lap', 'dao-kim', 'nobody'] } }, ['dao-kim', 'han-lap']],
    ['$in with an empty list', { id: { $in: [] } }, []],
    ['$nin', { id: { $nin: ['han-lap', 'dao-kim'] } }, ['diep-pham', 'tieu-viem']],
    ['$gt on a date', { created_at: { $gt: '2024-01-02T00:00:00Z' } }, ['dao-kim', 'tieu-viem']],
    [
      '$gte and $lte together',
      { created_at: { $gte: '2024-01-02T00:00:00Z', $lte: '2024-01-03T00:00:00Z' } },
      ['diep-pham', 'tieu-viem'],
    ],
    ['$lt', { created_at: { $lt: '2024-01-02T00:00:00Z' } }, ['han-lap']],
    ['a boolean column', { banned: false }, ['dao-kim', 'diep-pham', 'han-lap', 'tieu-viem']],
    [
      '$and',
      { $and: [{ role: 'user' }, { created_at: { $gt: '2024-01-01T12:00:00Z' } }] },
      ['tieu-viem'],
    ],
    ['$or', { $or: [{ role: 'admin' }, { id: 'dao-kim' }] }, ['dao-kim', 'diep-pham']],
    ['$nor', { $nor: [{ role: 'user' }] }, ['dao-kim', 'diep-pham']],
    [
      '$autocomplete on a word prefix, any case, with diacritics',
      { name: { $autocomplete: 'đạo' } },
      ['dao-kim'],
    ],
    ['$autocomplete on a later word', { name: { $autocomplete: 'PHÀ' } }, ['diep-pham']],
    ['$autocomplete does not match inside a word', { name: { $autocomplete: 'àm' } }, []],
    [
      '$autocomplete typed without accents or đ',
      { name: { $autocomplete: 'dao kim s' } },
      ['dao-kim'],
    ],
    [
      '$autocomplete typed in capitals with accents',
      { name: { $autocomplete: 'TIÊU VIÊM' } },
      ['tieu-viem'],
    ],
    ['$q on a later word without accents', { name: { $q: 'lap' } }, ['han-lap']],
    ['$autocomplete on the id', { id: { $autocomplete: 'diep' } }, ['diep-pham']],
    ['$autocomplete with a wrong accent finds nothing', { name: { $autocomplete: 'dau' } }, []],
    ['a custom number with $gte', { tu_vi: { $gte: 120 } }, ['diep-pham', 'han-lap']],
    ['a custom number with $lt', { tu_vi: { $lt: 100 } }, ['tieu-viem']],
    ['a custom number with $in', { tu_vi: { $in: [90, 5000] } }, ['diep-pham', 'tieu-viem']],
    ['a custom string', { sect: 'Hoang Cổ' }, ['diep-pham']],
    ['a custom boolean', { elder: true }, ['diep-pham']],
    [
      '$exists true on a custom field',
      { sect: { $exists: true } },
      ['dao-kim', 'diep-pham', 'han-lap'],
    ],
    ['$exists false on a custom field', { sect: { $exists: false } }, ['tieu-viem']],
    [
      '$autocomplete on a custom field folds non-ASCII capitals and accents',
      { hieu: { $autocomplete: 'dai' } },
      ['tieu-viem'],
    ],
    [
      '$autocomplete on a custom field escapes LIKE wildcards',
      { sect: { $autocomplete: 'kim_100%' } },
      ['dao-kim'],
    ],
    ['$autocomplete treats % literally', { sect: { $autocomplete: '%' } }, []],
    [
      '$ne on a custom field includes rows without it',
      { sect: { $ne: 'Hoang Cổ' } },
      ['dao-kim', 'han-lap', 'tieu-viem'],
    ],
  ])('filters with %s', async (_name, filter, expected) => {
    expect(await ids(filter)).toEqual(expected);
  });

  it('sorts by a column and by a custom field, nulls last in both directions', async () => {
    expect(await ids({}, [{ field: 'tu_vi', direction: -1 }])).toEqual([
      'diep-pham',
      'han-lap',
      'tieu-viem',
      'dao-kim',
    ]);
    expect(await ids({}, { tu_vi: 1 })).toEqual(['tieu-viem', 'han-lap', 'diep-pham', 'dao-kim']);
    // Names starting with "Đ" are left out: their order depends on the database collation.
    expect(await ids({ role: { $ne: 'moderator' } }, [{ name: -1 }])).toEqual([
      'tieu-viem',
      'han-lap',
      'diep-pham',
    ]);
  });

  it.each([
    ['an unknown operator', { id: { $regex: 'a' } }],
    ['an unknown top-level operator', { $where: 'x' }],
    ['$in without a list', { id: { $in: 'han-lap' } }],
    ['a number for a text column', { id: { $eq: { nested: true } } }],
    ['a string for a boolean column', { banned: 'yes' }],
    ['an invalid date', { created_at: { $gt: 'hôm qua' } }],
    ['$exists with a non-boolean', { sect: { $exists: 1 } }],
    ['an empty $or', { $or: [] }],
    ['a filter that is not an object', ['id']],
    ['a field name that is not a plain identifier', { 'a"b': 1 }],
    ['a field named constructor', { constructor: 'x' }],
    ['a date past the year 9999', { created_at: { $gt: '+020000-01-01T00:00:00Z' } }],
    [
      '$and nested 9 levels deep',
      JSON.parse(`${'{"$and":['.repeat(9)}{"id":"x"}${']}'.repeat(9)}`),
    ],
    ['$or with 101 entries', { $or: Array.from({ length: 101 }, (_, i) => ({ id: `u${i}` })) }],
    ['$in with 1,001 values', { id: { $in: Array.from({ length: 1001 }, (_, i) => `u${i}`) } }],
    [
      '2,001 list values in all',
      {
        $or: [1000, 1000, 1].map((n, list) => ({
          id: { $in: Array.from({ length: n }, (_, i) => `${list}-${i}`) },
        })),
      },
    ],
    ['101 conditions', Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`f${i}`, 1]))],
    ['a string of 5,001 characters', { name: { $autocomplete: 'x'.repeat(5001) } }],
  ])('rejects %s with code 4', (_name, filter) => {
    let error: unknown;
    try {
      compileFilter(filter, schema);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ChatError);
    expect((error as ChatError).code).toBe(4);
  });

  it('accepts filters at every cap', () => {
    const at = [
      JSON.parse(`${'{"$and":['.repeat(8)}{"id":"x"}${']}'.repeat(8)}`),
      { $or: Array.from({ length: 100 }, (_, i) => ({ id: `u${i}` })) },
      { id: { $in: Array.from({ length: 1000 }, (_, i) => `u${i}`) } },
      Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`f${i}`, 1])),
      { name: { $autocomplete: 'x'.repeat(5000) } },
    ];
    for (const filter of at) expect(() => compileFilter(filter, schema)).not.toThrow();
  });

  it('rejects unknown fields when the entity has no custom data', () => {
    expect(() => compileFilter({ color: 'red' }, { ...schema, customColumn: undefined })).toThrow(
      /not supported/,
    );
  });
});
