import type { Kysely, Transaction } from 'kysely';
import type { Database, Db } from '../../../db/schema.ts';
import type { WriteQueue } from '../../../db/write-queue.ts';
import type { PubSub, Unsubscribe } from '../../../pubsub/pubsub.ts';
import {
  BUILTIN_CHANNEL_TYPES,
  type ChannelType,
  type ChannelTypeConfig,
  type ChannelTypeLookup,
} from '../channel-types.ts';
import type { Logger } from '../deps.ts';
import { parseObject } from '../json.ts';

// Type aliases (not interfaces): `withTables` needs an index-compatible record type.
export type ChannelTypesTable = {
  app_id: string;
  name: string;
  config: string;
  grants: string;
  created_at: string;
  updated_at: string;
};
export type ChannelTypesTables = { channel_types: ChannelTypesTable };

/**
 * The channel types of every app this node serves, read whole into memory at start and after every change (a
 * handful of rows per app), so lookups on the hot paths stay synchronous. A change is written to the database first,
 * then announced on the bus: every node (this one included) reloads that app's types from the database.
 */
export interface ChannelTypeStore extends ChannelTypeLookup {
  /** Seeds the built-in types missing from the database, loads every app and listens for changes. */
  start(appIds: readonly string[]): Promise<void>;
  /**
   * Writes a new (`create`: false when the name is taken) or changed type, updates this node at once and tells the
   * others.
   */
  save(appId: string, type: ChannelType, mode: 'create' | 'update'): Promise<boolean>;
  /** Removes a type; false when it did not exist. */
  remove(appId: string, name: string): Promise<boolean>;
  /** Whether any channel (even soft-deleted) still has this type. */
  inUse(appId: string, name: string): Promise<boolean>;
  stop(): Promise<void>;
}

export interface ChannelTypeStoreDeps {
  db: Db;
  writes: WriteQueue;
  pubsub: PubSub;
  log: Logger;
  now(): string;
}

const topicOf = (appId: string) => `channel-types:${appId}`;

type Executor = Kysely<Database> | Transaction<Database>;
const tables = (executor: Executor) => executor.withTables<ChannelTypesTables>();

function rowOf(appId: string, type: ChannelType, now: string): ChannelTypesTable {
  const { name: _name, ...config } = type.config;
  return {
    app_id: appId,
    name: type.name,
    config: JSON.stringify(config),
    grants: JSON.stringify(type.grants),
    created_at: type.created_at ?? now,
    updated_at: type.updated_at ?? now,
  };
}

/** A stored row as a type; the built-in defaults fill switches added to the code after the row was written. */
function typeOf(row: ChannelTypesTable): ChannelType {
  const base = BUILTIN_CHANNEL_TYPES.messaging!.config;
  const config = { ...base, ...parseObject(row.config), name: row.name } as ChannelTypeConfig;
  return {
    name: row.name,
    config,
    grants: parseObject(row.grants) as ChannelType['grants'],
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export function createChannelTypeStore(deps: ChannelTypeStoreDeps): ChannelTypeStore {
  const byApp = new Map<string, Map<string, ChannelType>>();
  const lists = new Map<string, readonly ChannelType[]>();
  // Reloads may finish out of order: only the latest one started for an app may replace its map.
  const generation = new Map<string, number>();
  const unsubscribes: Unsubscribe[] = [];

  function install(appId: string, types: ChannelType[]): void {
    byApp.set(appId, new Map(types.map((type) => [type.name, type])));
    lists.set(appId, types);
  }

  async function reload(appId: string): Promise<void> {
    const mine = (generation.get(appId) ?? 0) + 1;
    generation.set(appId, mine);
    const rows = await tables(deps.db)
      .selectFrom('channel_types')
      .selectAll()
      .where('app_id', '=', appId)
      .orderBy('name')
      .execute();
    if (generation.get(appId) === mine) install(appId, rows.map(typeOf));
  }

  function reloadLogged(appId: string): void {
    reload(appId).catch((error: unknown) =>
      deps.log.error({ err: error, appId }, 'reloading channel types failed'),
    );
  }

  async function seed(appId: string): Promise<void> {
    const now = deps.now();
    const rows = Object.values(BUILTIN_CHANNEL_TYPES).map((type) => rowOf(appId, type, now));
    await deps.writes.run((trx) =>
      tables(trx)
        .insertInto('channel_types')
        .values(rows)
        // A built-in never changed through the API follows the code's current definition (new switches, grants
        // changed in a release); once changed, the app's own version is kept.
        .onConflict((oc) =>
          oc
            .columns(['app_id', 'name'])
            .doUpdateSet({
              config: (eb) => eb.ref('excluded.config'),
              grants: (eb) => eb.ref('excluded.grants'),
            })
            .whereRef('channel_types.updated_at', '=', 'channel_types.created_at'),
        )
        .execute(),
    );
  }

  async function announce(appId: string, name: string): Promise<void> {
    await deps.pubsub.publish(topicOf(appId), { frame: name });
  }

  return {
    get: (appId, name) => byApp.get(appId)?.get(name),
    list: (appId) => lists.get(appId) ?? [],

    async start(appIds) {
      for (const appId of appIds) {
        await seed(appId);
        unsubscribes.push(await deps.pubsub.subscribe(topicOf(appId), () => reloadLogged(appId)));
        await reload(appId);
      }
      // Changes published while this node was cut off from the bus never arrive: read everything again.
      deps.pubsub.onReceivingChange((receiving) => {
        if (receiving) for (const appId of appIds) reloadLogged(appId);
      });
    },

    async save(appId, type, mode) {
      const row = rowOf(appId, type, deps.now());
      const written = await deps.writes.run(async (trx) => {
        if (mode === 'create') {
          const result = await tables(trx)
            .insertInto('channel_types')
            .values(row)
            .onConflict((oc) => oc.columns(['app_id', 'name']).doNothing())
            .executeTakeFirst();
          return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
        }
        const result = await tables(trx)
          .updateTable('channel_types')
          .set({ config: row.config, grants: row.grants, updated_at: row.updated_at })
          .where('app_id', '=', appId)
          .where('name', '=', type.name)
          .executeTakeFirst();
        return Number(result.numUpdatedRows) > 0;
      });
      await reload(appId);
      if (written) await announce(appId, type.name);
      return written;
    },

    async remove(appId, name) {
      const result = await deps.writes.run((trx) =>
        tables(trx)
          .deleteFrom('channel_types')
          .where('app_id', '=', appId)
          .where('name', '=', name)
          .executeTakeFirst(),
      );
      await reload(appId);
      await announce(appId, name);
      return Number(result.numDeletedRows) > 0;
    },

    async inUse(appId, name) {
      const row = await deps.db
        .selectFrom('channels')
        .select('cid')
        .where('app_id', '=', appId)
        .where('type', '=', name)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },

    async stop() {
      for (const unsubscribe of unsubscribes.splice(0)) await unsubscribe();
    },
  };
}
