import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../../db/schema.ts';

// A type alias (not an interface): `withTables` needs an index-compatible record type.
export type BlocklistsTable = {
  app_id: string;
  name: string;
  type: string;
  /** A JSON array of words. */
  words: string;
  created_at: string;
  updated_at: string;
};

export type BlocklistRow = Selectable<BlocklistsTable>;

export interface BlocklistsRepo {
  list(appId: string): Promise<BlocklistRow[]>;
  get(appId: string, name: string): Promise<BlocklistRow | undefined>;
  /** When the list last changed, without its words: what a send checks its compiled copy against. */
  version(appId: string, name: string): Promise<string | undefined>;
  /** False when a list of that name exists already. */
  create(row: BlocklistRow): Promise<boolean>;
  /** False when no such list exists. */
  update(appId: string, name: string, words: string, updatedAt: string): Promise<boolean>;
  remove(appId: string, name: string): Promise<boolean>;
  count(appId: string): Promise<number>;
}

export function createBlocklistsRepo(db: Kysely<Database>): BlocklistsRepo {
  const tables = () => db.withTables<{ blocklists: BlocklistsTable }>();
  const one = (appId: string, name: string) =>
    tables().selectFrom('blocklists').where('app_id', '=', appId).where('name', '=', name);
  return {
    list: (appId) =>
      tables()
        .selectFrom('blocklists')
        .selectAll()
        .where('app_id', '=', appId)
        .orderBy('name')
        .execute(),
    get: (appId, name) => one(appId, name).selectAll().executeTakeFirst(),
    async version(appId, name) {
      const row = await one(appId, name).select('updated_at').executeTakeFirst();
      return row?.updated_at;
    },
    async create(row) {
      const result = await tables()
        .insertInto('blocklists')
        .values(row)
        .onConflict((oc) => oc.columns(['app_id', 'name']).doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    },
    async update(appId, name, words, updatedAt) {
      const result = await tables()
        .updateTable('blocklists')
        .set({ words, updated_at: updatedAt })
        .where('app_id', '=', appId)
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numUpdatedRows) > 0;
    },
    async remove(appId, name) {
      const result = await tables()
        .deleteFrom('blocklists')
        .where('app_id', '=', appId)
        .where('name', '=', name)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async count(appId) {
      const row = await tables()
        .selectFrom('blocklists')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('app_id', '=', appId)
        .executeTakeFirst();
      return Number(row?.n ?? 0);
    },
  };
}
