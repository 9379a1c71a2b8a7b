import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { FlagsTable } from './repo.ts';

// Type aliases (not interfaces): `withTables` needs an index-compatible record type.
export type ReviewItemsTable = {
  id: string;
  app_id: string;
  entity_type: string;
  entity_id: string;
  entity_creator_id: string;
  channel_cid: string | null;
  status: string;
  latest_moderator_action: string;
  reviewed_by: string | null;
  reviewed_at: string | null;
  created_at: string;
  updated_at: string;
};

export type ModerationActionsTable = {
  id: string;
  app_id: string;
  item_id: string;
  user_id: string;
  action_type: string;
  reason: string;
  options: string;
  created_at: string;
};

export type ReviewItemRow = Selectable<ReviewItemsTable>;
export type ModerationActionRow = Selectable<ModerationActionsTable>;
/** A flag as the queue reads it (0009 adds `created_by_automod`). */
export type QueueFlagRow = Selectable<FlagsTable> & { created_by_automod: number };

type ReviewTables = {
  review_items: ReviewItemsTable;
  moderation_actions: ModerationActionsTable;
  flags: FlagsTable & { created_by_automod: number };
};

type Executor = Kysely<Database> | Transaction<Database>;

/** The entity types of the review queue, as the client's MODERATION_ENTITY_TYPES names them. */
export const ENTITY_MESSAGE = 'stream:chat:v1:message';
export const ENTITY_USER = 'stream:user';

/** Filters the review queue understands, already checked. */
export interface QueueFilter {
  ids?: string[];
  entityTypes?: string[];
  entityIds?: string[];
  creatorIds?: string[];
  statuses?: string[];
  channelCids?: string[];
  reviewed?: boolean;
}

export interface ReviewRepo {
  /** The item of an entity, created pending when it is first flagged; a flag on a reviewed item reopens it. */
  openItem(executor: Executor, row: ReviewItemRow): Promise<ReviewItemRow>;
  item(appId: string, id: string): Promise<ReviewItemRow | undefined>;
  itemOf(appId: string, entityType: string, entityId: string): Promise<ReviewItemRow | undefined>;
  items(
    appId: string,
    filter: QueueFilter,
    page: { limit: number; offset: number; desc: boolean },
  ): Promise<ReviewItemRow[]>;
  updateItem(executor: Executor, id: string, patch: Partial<ReviewItemRow>): Promise<void>;
  logAction(executor: Executor, row: ModerationActionRow): Promise<void>;
  actions(itemIds: string[]): Promise<ModerationActionRow[]>;
  /** Flags on the given targets (`message:<id>` / `user:<id>`). */
  flagsOn(appId: string, targets: string[]): Promise<QueueFlagRow[]>;
  /** Message flags, newest first. */
  messageFlags(
    appId: string,
    filter: { channelCids?: string[]; userIds?: string[]; reviewed?: boolean },
    page: { limit: number; offset: number },
  ): Promise<(QueueFlagRow & { reviewed_at: string | null; reviewed_by: string | null })[]>;
  insertAutomodFlag(executor: Executor, row: QueueFlagRow): Promise<void>;
  /** The app's moderators and admins, who are told of new flags (bounded). */
  moderatorIds(appId: string): Promise<string[]>;
  /** Which of these messages are shadowed (sent by a shadow-banned author). */
  shadowedMessages(appId: string, messageIds: string[]): Promise<Set<string>>;
}

const MAX_NOTIFIED_MODERATORS = 500;

export function createReviewRepo(db: Kysely<Database>): ReviewRepo {
  const tables = (executor: Executor) => executor.withTables<ReviewTables>();
  const itemOf = (executor: Executor, appId: string, type: string, entityId: string) =>
    tables(executor)
      .selectFrom('review_items')
      .selectAll()
      .where('app_id', '=', appId)
      .where('entity_type', '=', type)
      .where('entity_id', '=', entityId)
      .executeTakeFirst();
  return {
    async openItem(executor, row) {
      await tables(executor)
        .insertInto('review_items')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['app_id', 'entity_type', 'entity_id'])
            // A new flag reopens a reviewed item; what was done before stays in its action log.
            .doUpdateSet({
              status: 'pending',
              reviewed_at: null,
              reviewed_by: null,
              updated_at: row.updated_at,
            }),
        )
        .execute();
      return (await itemOf(executor, row.app_id, row.entity_type, row.entity_id))!;
    },
    item: (appId, id) =>
      tables(db)
        .selectFrom('review_items')
        .selectAll()
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst(),
    itemOf: (appId, type, entityId) => itemOf(db, appId, type, entityId),
    items(appId, filter, page) {
      let query = tables(db).selectFrom('review_items').selectAll().where('app_id', '=', appId);
      if (filter.ids) query = query.where('id', 'in', filter.ids);
      if (filter.entityTypes) query = query.where('entity_type', 'in', filter.entityTypes);
      if (filter.entityIds) query = query.where('entity_id', 'in', filter.entityIds);
      if (filter.creatorIds) query = query.where('entity_creator_id', 'in', filter.creatorIds);
      if (filter.statuses) query = query.where('status', 'in', filter.statuses);
      if (filter.channelCids) query = query.where('channel_cid', 'in', filter.channelCids);
      if (filter.reviewed !== undefined)
        query = query.where('reviewed_at', filter.reviewed ? 'is not' : 'is', null);
      const direction = page.desc ? 'desc' : 'asc';
      return query
        .orderBy('created_at', direction)
        .orderBy('id', direction)
        .limit(page.limit)
        .offset(page.offset)
        .execute();
    },
    async updateItem(executor, id, patch) {
      await tables(executor).updateTable('review_items').set(patch).where('id', '=', id).execute();
    },
    async logAction(executor, row) {
      await tables(executor).insertInto('moderation_actions').values(row).execute();
    },
    actions: (itemIds) =>
      itemIds.length === 0
        ? Promise.resolve([])
        : tables(db)
            .selectFrom('moderation_actions')
            .selectAll()
            .where('item_id', 'in', itemIds)
            .orderBy('created_at')
            .orderBy('id')
            .execute(),
    flagsOn: (appId, targets) =>
      targets.length === 0
        ? Promise.resolve([])
        : tables(db)
            .selectFrom('flags')
            .selectAll()
            .where('app_id', '=', appId)
            .where('target', 'in', targets)
            .orderBy('created_at')
            .execute(),
    messageFlags(appId, filter, page) {
      let query = tables(db)
        .selectFrom('flags as f')
        .leftJoin('review_items as i', (join) =>
          join
            .onRef('i.app_id', '=', 'f.app_id')
            .onRef('i.entity_id', '=', 'f.target_message_id')
            .on('i.entity_type', '=', ENTITY_MESSAGE),
        )
        .selectAll('f')
        .select(['i.reviewed_at', 'i.reviewed_by'])
        .where('f.app_id', '=', appId)
        .where('f.target_message_id', 'is not', null);
      if (filter.channelCids) query = query.where('f.channel_cid', 'in', filter.channelCids);
      if (filter.userIds) query = query.where('f.user_id', 'in', filter.userIds);
      if (filter.reviewed !== undefined)
        query = query.where('i.reviewed_at', filter.reviewed ? 'is not' : 'is', null);
      return query.orderBy('f.created_at', 'desc').limit(page.limit).offset(page.offset).execute();
    },
    async insertAutomodFlag(executor, row) {
      await tables(executor)
        .insertInto('flags')
        .values(row)
        .onConflict((oc) => oc.columns(['app_id', 'user_id', 'target']).doNothing())
        .execute();
    },
    async moderatorIds(appId) {
      const rows = await tables(db)
        .selectFrom('users')
        .select('id')
        .where('app_id', '=', appId)
        .where('role', 'in', ['admin', 'moderator'])
        .limit(MAX_NOTIFIED_MODERATORS)
        .execute();
      return rows.map((row) => row.id);
    },
    async shadowedMessages(appId, messageIds) {
      if (messageIds.length === 0) return new Set();
      const rows = await db
        .selectFrom('messages')
        .select('id')
        .where('app_id', '=', appId)
        .where('id', 'in', messageIds)
        .where('shadowed', '=', 1)
        .execute();
      return new Set(rows.map((row) => row.id));
    },
  };
}
