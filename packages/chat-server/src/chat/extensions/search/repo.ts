import { sql, type CompiledQuery, type RawBuilder } from 'kysely';
import type { Db, SqlDialectKind } from '../../../db/schema.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import { visibleToViewer } from '../../core/access/visibility.ts';
import { ftsLedPage, searchedChannels } from './fts-led.ts';
import { pgNewestMatches } from './pg-newest.ts';
import { MSG } from './message-filter.ts';

/** One page of a search, compiled by the service. */
export interface SearchQuery {
  dialect: SqlDialectKind;
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
  /** The direction of each sort key (1 ascending, -1 descending), for plans that sort on the selected keys. */
  directions: (1 | -1)[];
  /** A `previous` page: `order` is the sort reversed, and plans sorting on the keys reverse it too. */
  backward?: boolean;
  limit: number;
  offset: number;
  /**
   * When set, only the newest this many matches the viewer may read are sorted: on SQLite the text index is walked
   * newest first and stops there, instead of every match being scored and sorted before the first page is cut.
   */
  candidates: number | null;
  /**
   * The FTS5 query that drives a capped search on SQLite, read newest first (fts-led.ts); then `where` leaves the
   * text out, as the lookup already applies it (an IN list would collect every match before the first is read).
   */
  ftsLead: string | null;
  /**
   * PostgreSQL: false leaves out the newest-first walk of pg-newest.ts (the trigram plan alone, as before migration
   * 0024), for bench/search/postgres.ts to time both plans in one run. Unset means on.
   */
  pgWalk?: boolean;
}

export type SearchRow = MessageRow & Record<`k${number}`, unknown>;

export interface SearchRepo {
  /** Messages of the channels the filter selects, excluding deleted ones and those hidden from the viewer. */
  messages(query: SearchQuery): Promise<SearchRow[]>;
}

/** Every condition a match meets (alias `sm`): the app, live, in a selected channel, visible, the filter. */
function matchConditions(query: SearchQuery): RawBuilder<boolean>[] {
  // SQLite plans without statistics and would rather read every message of the selected channels than the few the
  // text index names; a unary + keeps app_id and cid off the index, so the FTS5 rowids lead instead.
  const lead = query.textDriven ? sql`+` : sql``;
  // The channels are a subquery, not a list: a filter may select any number of them.
  const channels = sql<boolean>`${lead}${sql.ref(`${MSG}.cid`)} in (select c.cid ${searchedChannels(query)})`;
  return [
    sql<boolean>`${lead}${sql.ref(`${MSG}.app_id`)} = ${query.appId}`,
    sql<boolean>`${sql.ref(`${MSG}.deleted_at`)} is null`,
    channels,
    visibleToViewer(MSG, query.viewerId),
    ...query.where,
  ];
}

/** The matching messages the viewer may read (alias `sm`), before sorting. */
function matchesSelect(db: Db, query: SearchQuery) {
  let select = db.selectFrom(`messages as ${MSG}` as 'messages as sm').selectAll(MSG as 'sm');
  for (const condition of matchConditions(query)) select = select.where(condition);
  return select;
}

/**
 * The newest `candidates` matches, when no FTS5 query leads (PostgreSQL; on SQLite a filter's text inside `$or`, or
 * only emoji). On SQLite a message's rowid grows with the time it was stored, so reading rowids in descending order
 * gives the newest first; PostgreSQL keeps the newest by created_at, walking the newest messages first when the
 * words are common (pg-newest.ts).
 */
function newestMatches(db: Db, query: SearchQuery, candidates: number) {
  const matches = matchesSelect(db, query);
  if (query.dialect === 'sqlite')
    return matches.orderBy(sql`${sql.ref(`${MSG}.rowid`)} desc`).limit(candidates);
  // Sorted on an expression that no index provides, so this plan reads the matches through the trigram index and
  // keeps the newest in a bounded sort; the planner would otherwise walk migration 0024's index without a bound on
  // how far (pg-newest.ts bounds that walk and chooses it only for common words). Same order: the same text values.
  const trigram = matches
    .orderBy(sql`${sql.ref(`${MSG}.created_at`)} || ''`, 'desc')
    .orderBy(sql.ref(`${MSG}.id`), 'asc')
    .limit(candidates);
  if (query.pgWalk === false) return trigram;
  const conditions = sql<boolean>`${sql.join(matchConditions(query), sql` and `)}`;
  return pgNewestMatches(query.appId, conditions, trigram, candidates);
}

/** The SELECT of one search page (exported for bench/search, which prints its query plan). */
export function searchSelect(db: Db, query: SearchQuery): CompiledQuery<SearchRow> {
  if (query.ftsLead !== null && query.candidates !== null)
    return ftsLedPage(query, query.ftsLead, query.candidates).compile(db);
  const keys = query.keys.map((key, i) => key.as(`k${i}`));
  let select =
    query.candidates === null
      ? matchesSelect(db, query).select(keys)
      : db
          .selectFrom(newestMatches(db, query, query.candidates).as(MSG))
          .selectAll()
          .select(keys);
  for (const item of query.order) select = select.orderBy(item);
  return select.limit(query.limit).offset(query.offset).compile() as CompiledQuery<SearchRow>;
}

export function createSearchRepo(db: Db): SearchRepo {
  return {
    messages: async (query) => (await db.executeQuery(searchSelect(db, query))).rows,
  };
}
