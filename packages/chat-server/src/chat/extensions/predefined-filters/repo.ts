import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';

// A type alias (not an interface): `withTables` needs an index-compatible record type.
export type PredefinedFiltersTable = {
  app_id: string;
  name: string;
  operation: string;
  description: string | null;
  /** JSON: the filter template. */
  filter: string;
  /** JSON: the sort template, or null. */
  sort: string | null;
  created_at: string;
  updated_at: string;
};

export type PredefinedFilterRow = Selectable<PredefinedFiltersTable>;

/** The orders a list may take, by column; every order ends on the name, which is unique. */
export type ListOrder = {
  column: 'name' | 'created_at' | 'updated_at';
  direction: 'asc' | 'desc';
}[];

export function createPredefinedFiltersRepo(db: Kysely<Database>) {
  const tables = () => db.withTables<{ predefined_filters: PredefinedFiltersTable }>();
  const one = (appId: string, name: string) =>
    tables().selectFrom('predefined_filters').where('app_id', '=', appId).where('name', '=', name);
  return {
    get: (appId: string, name: string) => one(appId, name).selectAll().executeTakeFirst(),
    async count(appId: string): Promise<number> {
      const row = await tables()
        .selectFrom('predefined_filters')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('app_id', '=', appId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
    /** False when a filter of that name exists already. */
    async create(row: PredefinedFilterRow): Promise<boolean> {
      const result = await tables()
        .insertInto('predefined_filters')
        .values(row)
        .onConflict((oc) => oc.columns(['app_id', 'name']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async update(
      appId: string,
      name: string,
      set: Omit<PredefinedFilterRow, 'app_id' | 'name' | 'created_at'>,
    ): Promise<boolean> {
      const result = await tables()
        .updateTable('predefined_filters')
        .set(set)
        .where('app_id', '=', appId)
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(appId: string, name: string): Promise<boolean> {
      const result = await tables()
        .deleteFrom('predefined_filters')
        .where('app_id', '=', appId)
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    list(appId: string, order: ListOrder, limit: number, offset: number) {
      let query = tables().selectFrom('predefined_filters').selectAll().where('app_id', '=', appId);
      for (const { column, direction } of order) query = query.orderBy(column, direction);
      if (!order.some((o) => o.column === 'name')) query = query.orderBy('name', 'asc');
      return query.limit(limit).offset(offset).execute();
    },
  };
}

export type PredefinedFiltersRepo = ReturnType<typeof createPredefinedFiltersRepo>;
