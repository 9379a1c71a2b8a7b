import { sql, type RawBuilder } from 'kysely';
import { historyBoundSql, shownToViewer } from '../../core/access/visibility.ts';
import { MSG } from './message-filter.ts';
import { sortTerm } from './keyset.ts';
import type { SearchQuery, SearchRow } from './repo.ts';

/*
 * The plan of a capped text search on SQLite (bench/search/profile.ts times its steps at 1,000,000 messages):
 *
 * 1. `readable`: the channels the filter selects for the viewer, each with its history bound, computed once per
 *    request and materialized, so each candidate costs one lookup in a temporary index instead of an IN list plus two
 *    correlated probes (channel truncation, the viewer's hidden history).
 * 2. `candidates`: the FTS5 index read newest first (descending rowid, which follows created_at as messages are
 *    stored as sent), each row checked against `readable` and the per-viewer rule, until `candidates` have passed.
 *    Only the row id, the message id and the sort keys leave this step.
 * 3. `page`: the candidates sorted by the keys, cut to one page.
 * 4. The page's rows, read again by rowid: the full row is read for the few messages returned, not the thousands
 *    sorted.
 */

const FTS = 'sf';

/**
 * `from … where …` of the channels a search reads: those `channelWhere` selects (alias `c`), live, with the viewer's
 * membership LEFT JOINed as `m`, as the compiled channel filter expects. Both plans (repo.ts, and `readable` here)
 * read the channels through it.
 */
export function searchedChannels(query: SearchQuery): RawBuilder<unknown> {
  return sql`from channels c left join members m on m.app_id = c.app_id and m.cid = c.cid and m.user_id = ${query.viewerId ?? ''} where c.app_id = ${query.appId} and c.deleted_at is null and ${query.channelWhere}`;
}

/**
 * The viewer's readable channels and the bound of the history they may see in each (core/access/visibility.ts
 * `historyBoundSql`, the rule `visibleToViewer` applies row by row). '' stands for no bound.
 */
function readableChannels(query: SearchQuery): RawBuilder<unknown> {
  return sql`select c.cid as cid, ${historyBoundSql('c', 'm')} as bound ${searchedChannels(query)}`;
}

const keyName = (i: number) => sql.ref(`k${i}`);

function candidates(query: SearchQuery, match: string, count: number): RawBuilder<unknown> {
  const keys = query.keys.map((key, i) => sql`${key} as ${keyName(i)}`);
  const where = [
    sql`${sql.ref(`${FTS}.messages_fts`)} match ${match}`,
    sql`${sql.ref(`${MSG}.rowid`)} = ${sql.ref(`${FTS}.rowid`)}`,
    // Unary +: the FTS5 rowids lead; app_id and cid must not pull in a messages index.
    sql`+${sql.ref(`${MSG}.app_id`)} = ${query.appId}`,
    sql`${sql.ref(`${MSG}.deleted_at`)} is null`,
    sql`rd.cid = ${sql.ref(`${MSG}.cid`)}`,
    sql`${sql.ref(`${MSG}.created_at`)} > rd.bound`,
    shownToViewer(MSG, query.viewerId),
    ...query.where,
  ];
  // CROSS JOIN fixes the join order in SQLite: the index outermost, so rows come in its rowid order.
  return sql`select ${sql.ref(`${MSG}.rowid`)} as rid, ${sql.ref(`${MSG}.id`)} as id, ${sql.join(keys)} from messages_fts as ${sql.ref(FTS)} cross join messages as ${sql.ref(MSG)} cross join readable as rd where ${sql.join(where, sql` and `)} order by ${sql.ref(`${FTS}.rowid`)} desc limit ${count}`;
}

/** ORDER BY on the selected keys of `alias` (the same order as keyset.ts `orderBy`). */
function byKeys(query: SearchQuery, alias: string): RawBuilder<unknown> {
  const backward = query.backward === true;
  const terms = query.directions.map((direction, i) =>
    sortTerm(sql.ref(`${alias}.k${i}`), direction, backward),
  );
  return sql.join([...terms, sql`${sql.ref(`${alias}.id`)} ${sql.raw(backward ? 'desc' : 'asc')}`]);
}

/** One page of a capped search led by the FTS5 query `match`, for the newest `count` readable matches. */
export function ftsLedPage(
  query: SearchQuery,
  match: string,
  count: number,
): RawBuilder<SearchRow> {
  const keys = query.directions.map((_, i) => sql`page.${keyName(i)}`);
  const page = sql`select * from (${candidates(query, match, count)}) as cand order by ${byKeys(query, 'cand')} limit ${query.limit} offset ${query.offset}`;
  return sql<SearchRow>`with readable as materialized (${readableChannels(query)}) select ${sql.raw(`${MSG}.*`)}${keys.length > 0 ? sql`, ${sql.join(keys)}` : sql``} from (${page}) as page cross join messages as ${sql.ref(MSG)} where ${sql.ref(`${MSG}.rowid`)} = page.rid order by ${byKeys(query, 'page')}`;
}
