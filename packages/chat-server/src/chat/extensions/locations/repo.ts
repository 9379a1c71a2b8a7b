import type { Kysely, Selectable, Transaction } from 'kysely';
import { reusableQuery } from '../../../db/reusable-query.ts';
import type { Database, Db } from '../../../db/schema.ts';

// Type aliases (not interfaces): `withTables` needs an index-compatible record type.
export type SharedLocationsTable = {
  app_id: string;
  message_id: string;
  cid: string;
  user_id: string;
  created_by_device_id: string;
  latitude: number;
  longitude: number;
  end_at: string | null;
  created_at: string;
  updated_at: string;
};

export type SharedLocationRow = Selectable<SharedLocationsTable>;

export type LocationsTables = {
  shared_locations: SharedLocationsTable;
};

type Executor = Kysely<Database> | Transaction<Database>;

export interface LocationsRepo {
  get(appId: string, messageId: string): Promise<SharedLocationRow | undefined>;
  forMessages(appId: string, messageIds: string[]): Promise<Map<string, SharedLocationRow>>;
  insert(trx: Executor, row: SharedLocationRow): Promise<void>;
  update(
    trx: Executor,
    appId: string,
    messageId: string,
    patch: Partial<Pick<SharedLocationRow, 'latitude' | 'longitude' | 'end_at' | 'updated_at'>>,
  ): Promise<void>;
  /** The user's live locations still running at `now`, on messages that still exist and are not deleted. */
  activeFor(appId: string, userId: string, now: string): Promise<SharedLocationRow[]>;
}

const tables = (executor: Executor) => executor.withTables<LocationsTables>();

// Asked on every connect (`me.active_live_locations`): built and compiled once (db/reusable-query.ts).
const activeLocations = reusableQuery<[string, string, string], SharedLocationRow>(
  3,
  (executor, appId, userId, now) =>
    tables(executor)
      .selectFrom('shared_locations as l')
      .innerJoin('messages as m', (join) =>
        join.onRef('m.app_id', '=', 'l.app_id').onRef('m.id', '=', 'l.message_id'),
      )
      .selectAll('l')
      .where('l.app_id', '=', appId)
      .where('l.user_id', '=', userId)
      .where('l.end_at', 'is not', null)
      .where('l.end_at', '>', now)
      .where('m.deleted_at', 'is', null)
      .orderBy('l.created_at', 'asc'),
);

export function createLocationsRepo(db: Db): LocationsRepo {
  const q = tables(db);
  return {
    get: (appId, messageId) =>
      q
        .selectFrom('shared_locations')
        .selectAll()
        .where('app_id', '=', appId)
        .where('message_id', '=', messageId)
        .executeTakeFirst(),
    async forMessages(appId, messageIds) {
      if (messageIds.length === 0) return new Map();
      const rows = await q
        .selectFrom('shared_locations')
        .selectAll()
        .where('app_id', '=', appId)
        .where('message_id', 'in', messageIds)
        .execute();
      return new Map(rows.map((r) => [r.message_id, r]));
    },
    async insert(trx, row) {
      await tables(trx).insertInto('shared_locations').values(row).execute();
    },
    async update(trx, appId, messageId, patch) {
      await tables(trx)
        .updateTable('shared_locations')
        .set(patch)
        .where('app_id', '=', appId)
        .where('message_id', '=', messageId)
        .execute();
    },
    activeFor: (appId, userId, now) => activeLocations.execute(db, appId, userId, now),
  };
}
