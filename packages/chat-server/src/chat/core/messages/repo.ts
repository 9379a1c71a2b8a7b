import { searchText } from '@daohuu/domain';
import { sql, type Insertable, type Selectable, type Updateable } from 'kysely';
import type { Db, MessagesTable } from '../../../db/schema.ts';
import { shownToViewer } from '../access/visibility.ts';
import { pageMessages } from './page-query.ts';
import type { MessagePage } from './pagination.ts';
import type { PinnedPage } from './pinned-page.ts';

/** The keyset bounds, fetch order and offset of a pinned-messages page (pinned-page.ts). */
export type PinnedWindow = Pick<PinnedPage, 'conditions' | 'fetch' | 'offset'>;

export type MessageRow = Selectable<MessagesTable>;
/** `historyBounds` for what every member may see at once. */
export const EVERY_MEMBER = Symbol('every member');
type Executor = Pick<Db, 'selectFrom' | 'insertInto' | 'updateTable' | 'deleteFrom'>;

/** Which messages a page is taken from. */
export interface MessageScope {
  appId: string;
  cid?: string;
  /** null: channel view (top-level + show_in_channel replies); string: the replies of that parent. */
  parentId: string | null;
  /** Messages at or before this instant are hidden (truncation, hide_messages_before). */
  visibleAfter?: string | null;
  /** Who reads the page, for per-viewer hiding (visibility.ts `shownToViewer`); absent for internal reads. */
  viewer?: string | null;
}

export interface MessagesRepo {
  get(appId: string, id: string, executor?: Executor): Promise<MessageRow | undefined>;
  getMany(appId: string, ids: readonly string[]): Promise<Map<string, MessageRow>>;
  page(scope: MessageScope, page: MessagePage): Promise<MessageRow[]>;
  /** The newest `limit` channel-view messages of each channel, ascending, in one query. */
  latestPerChannel(
    appId: string,
    cids: readonly string[],
    limit: number,
    visibleAfter: Map<string, string>,
    viewer?: string | null,
  ): Promise<Map<string, MessageRow[]>>;
  /** Current pins, newest pin first; `visibleAfter` hides messages at or before it (as in `page`). */
  pinned(
    appId: string,
    cid: string,
    limit: number,
    now: string,
    visibleAfter: string | null,
    viewer?: string | null,
    page?: PinnedWindow,
  ): Promise<MessageRow[]>;
  /**
   * The hidden-history bound of each channel (see visibility.ts) for `viewer`: a user, null for a server call naming
   * nobody (truncation only), or `everyone` for a payload shared by every watcher (the strictest bound of any
   * member). Channels with no bound are left out.
   */
  historyBounds(
    appId: string,
    cids: readonly string[],
    viewer: string | null | typeof EVERY_MEMBER,
  ): Promise<Map<string, string>>;
  insert(executor: Executor, row: Insertable<MessagesTable>): Promise<void>;
  update(
    executor: Executor,
    appId: string,
    id: string,
    patch: Updateable<MessagesTable>,
  ): Promise<void>;
  remove(executor: Executor, appId: string, id: string): Promise<void>;
  /** Records that `userId` deleted the message for themselves only; repeating it changes nothing. */
  deleteForUser(appId: string, userId: string, messageId: string, now: string): Promise<void>;
  /** Which of `messageIds` the viewer deleted for themselves. */
  deletedForUser(
    appId: string,
    userId: string,
    messageIds: readonly string[],
  ): Promise<Set<string>>;
}

async function latestPerChannel(
  db: Db,
  appId: string,
  cids: readonly string[],
  limit: number,
  visibleAfter: Map<string, string>,
  viewer: string | null | undefined,
): Promise<Map<string, MessageRow[]>> {
  const result = new Map<string, MessageRow[]>(cids.map((cid) => [cid, []]));
  if (cids.length === 0 || limit <= 0) return result;
  const visibility = cids.map((cid) => {
    const after = visibleAfter.get(cid);
    return after ? sql`(cid = ${cid} and created_at > ${after})` : sql`cid = ${cid}`;
  });
  // Window functions exist in both SQLite (3.25+) and PostgreSQL: one round trip for every channel of a page.
  const rows = await db
    .selectFrom((eb) =>
      eb
        .selectFrom('messages')
        .selectAll()
        .select(
          sql<number>`row_number() over (partition by cid order by created_at desc, id desc)`.as(
            'rn',
          ),
        )
        .where('app_id', '=', appId)
        .where(sql<boolean>`(${sql.join(visibility, sql` or `)})`)
        .where(sql<boolean>`(parent_id is null or show_in_channel = 1)`)
        .where(shownToViewer(null, viewer))
        .as('ranked'),
    )
    .selectAll()
    .where('rn', '<=', limit)
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  for (const { rn: _rn, ...row } of rows) result.get(row.cid)?.push(row);
  return result;
}

async function historyBounds(
  db: Db,
  appId: string,
  cids: readonly string[],
  viewer: string | null | typeof EVERY_MEMBER,
): Promise<Map<string, string>> {
  const bounds = new Map<string, string>();
  const raise = (cid: string, at: string | null) => {
    const current = bounds.get(cid);
    if (at && (!current || at > current)) bounds.set(cid, at);
  };
  const unique = [...new Set(cids)];
  for (let i = 0; i < unique.length; i += 500) {
    const chunk = unique.slice(i, i + 500);
    const channels = await db
      .selectFrom('channels')
      .select(['cid', 'truncated_at'])
      .where('app_id', '=', appId)
      .where('cid', 'in', chunk)
      .where('truncated_at', 'is not', null)
      .execute();
    for (const row of channels) raise(row.cid, row.truncated_at);
    if (viewer === null) continue;
    let members = db
      .selectFrom('members')
      .select(['cid', (eb) => eb.fn.max('hide_messages_before').as('bound')])
      .where('app_id', '=', appId)
      .where('cid', 'in', chunk)
      .where('hide_messages_before', 'is not', null);
    if (viewer !== EVERY_MEMBER) members = members.where('user_id', '=', viewer);
    for (const row of await members.groupBy('cid').execute()) raise(row.cid, row.bound);
  }
  return bounds;
}

export function createMessagesRepo(db: Db): MessagesRepo {
  return {
    get: (appId, id, executor = db) =>
      executor
        .selectFrom('messages')
        .selectAll()
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .executeTakeFirst(),

    async getMany(appId, ids) {
      const map = new Map<string, MessageRow>();
      const unique = [...new Set(ids)];
      for (let i = 0; i < unique.length; i += 500) {
        const rows = await db
          .selectFrom('messages')
          .selectAll()
          .where('app_id', '=', appId)
          .where('id', 'in', unique.slice(i, i + 500))
          .execute();
        for (const row of rows) map.set(row.id, row);
      }
      return map;
    },

    page: (scope, page) => pageMessages(db, scope, page),

    latestPerChannel: (appId, cids, limit, visibleAfter, viewer) =>
      latestPerChannel(db, appId, cids, limit, visibleAfter, viewer),

    pinned: (appId, cid, limit, now, visibleAfter, viewer, page) => {
      let query = db
        .selectFrom('messages')
        .selectAll()
        .where('app_id', '=', appId)
        .where('cid', '=', cid)
        .where('pinned', '=', 1)
        .where((eb) => eb.or([eb('pin_expires', 'is', null), eb('pin_expires', '>', now)]))
        .where('deleted_at', 'is', null);
      if (visibleAfter) query = query.where('created_at', '>', visibleAfter);
      query = query.where(shownToViewer(null, viewer));
      for (const condition of page?.conditions ?? []) query = query.where(condition);
      const direction = page?.fetch ?? 'desc';
      return query
        .orderBy('pinned_at', direction)
        .orderBy('id', direction)
        .limit(limit)
        .offset(page?.offset ?? 0)
        .execute();
    },

    historyBounds: (appId, cids, viewer) => historyBounds(db, appId, cids, viewer),

    async insert(executor, row) {
      await executor
        .insertInto('messages')
        .values({ ...row, search_text: searchText(row.text ?? '') })
        .execute();
    },
    async update(executor, appId, id, patch) {
      await executor
        .updateTable('messages')
        // An edit of the text re-folds its words for the search index (migration 0007).
        .set(
          typeof patch.text === 'string'
            ? { ...patch, search_text: searchText(patch.text) }
            : patch,
        )
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .execute();
    },
    async deleteForUser(appId, userId, messageId, now) {
      await db
        .insertInto('messages_deleted_for_me')
        .values({ app_id: appId, user_id: userId, message_id: messageId, deleted_at: now })
        .onConflict((oc) => oc.columns(['app_id', 'user_id', 'message_id']).doNothing())
        .execute();
    },
    async deletedForUser(appId, userId, messageIds) {
      const found = new Set<string>();
      for (let i = 0; i < messageIds.length; i += 500) {
        const rows = await db
          .selectFrom('messages_deleted_for_me')
          .select('message_id')
          .where('app_id', '=', appId)
          .where('user_id', '=', userId)
          .where('message_id', 'in', messageIds.slice(i, i + 500))
          .execute();
        for (const row of rows) found.add(row.message_id);
      }
      return found;
    },
    async remove(executor, appId, id) {
      await executor
        .deleteFrom('messages')
        .where('app_id', '=', appId)
        .where('id', '=', id)
        .execute();
    },
  };
}
