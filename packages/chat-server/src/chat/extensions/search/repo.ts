import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../../db/schema.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import { visibleToViewer } from '../../core/access/visibility.ts';
import { MSG } from './message-filter.ts';

/** One page of a search, compiled by the service. */
export interface SearchQuery {
  appId: string;
  /** Who searches; null for a server call naming nobody, for whom only truncation hides. */
  viewerId: string | null;
  /** The compiled channel filter (alias `c`, the viewer's membership `m`). */
  channelWhere: RawBuilder<boolean>;
  /** Every result matches a searched text: the text index, not the channels, leads the plan (SQLite). */
  textDriven: boolean;
  /** The compiled message filter and, when paging with `next`, the keyset bound (alias `sm`). */
  where: RawBuilder<boolean>[];
  order: RawBuilder<unknown>[];
  /** The sort keys, selected as `k0`, `k1`… so the next cursor can be built from the last row. */
  keys: RawBuilder<unknown>[];
  limit: number;
  offset: number;
}

export type SearchRow = MessageRow & Record<`k${number}`, unknown>;

export interface SearchRepo {
  /** Messages of the channels the filter selects, excluding deleted ones and those hidden from the viewer. */
  messages(query: SearchQuery): Promise<SearchRow[]>;
}

/** The SELECT of one search page (exported for bench/search, which prints its query plan). */
export function searchSelect(db: Db, query: SearchQuery) {
  // SQLite plans without statistics and would rather read every message of the selected channels than the few the
  // text index names; a unary + keeps app_id and cid off the index, so the FTS5 rowids lead instead.
  const lead = query.textDriven ? sql`+` : sql``;
  // The channels are a subquery, not a list: a filter may select any number of them.
  const channels = sql<boolean>`${lead}${sql.ref(`${MSG}.cid`)} in (select c.cid from channels c left join members m on m.app_id = c.app_id and m.cid = c.cid and m.user_id = ${query.viewerId ?? ''} where c.app_id = ${query.appId} and c.deleted_at is null and ${query.channelWhere})`;
  let select = db
    .selectFrom(`messages as ${MSG}` as 'messages as sm')
    .selectAll(MSG as 'sm')
    .select(query.keys.map((key, i) => key.as(`k${i}`)))
    .where(sql<boolean>`${lead}${sql.ref(`${MSG}.app_id`)} = ${query.appId}`)
    .where(sql.ref(`${MSG}.deleted_at`), 'is', null)
    .where(channels)
    .where(visibleToViewer(MSG, query.viewerId));
  for (const condition of query.where) select = select.where(condition);
  for (const item of query.order) select = select.orderBy(item);
  return select.limit(query.limit).offset(query.offset);
}

export function createSearchRepo(db: Db): SearchRepo {
  return {
    messages: (query) => searchSelect(db, query).execute() as Promise<SearchRow[]>,
  };
}
