import { sql, type Expression, type RawBuilder } from 'kysely';
import { MSG } from './message-filter.ts';

/*
 * The newest `cap` matches on PostgreSQL (bench/search/postgres.ts times it at 1,000,000 messages). The pg_trgm index
 * finds the messages holding the words but has no order: for a common word it names a large share of the table, and
 * every named row is read and rechecked before the newest can be chosen. When the words are common, reading the
 * app's messages newest first (migration 0024's index) with the match as a filter reaches the cap after a few
 * thousand rows instead. Which one wins depends on how common the words are, which the planner cannot estimate for
 * LIKE patterns, so the query measures it:
 *
 * 1. `probe`: how many of the app's newest PROBE_ROWS messages pass every condition.
 * 2. `walk`: only when the probe predicts at least `cap` matches within the newest WALK_ROWS messages, those are read
 *    newest first and the first `cap` that pass are kept. The window is a prefix of the candidates' own order
 *    (created_at descending, id ascending), so when `cap` pass in it they are exactly the newest `cap` matches.
 * 3. Otherwise (rare words, or a probe that guessed wrong: then the walk's rows are dropped) the trigram plan as
 *    before: every match, the newest `cap` kept by a bounded sort.
 *
 * Steps 2 and 3 are gated by one-time filters on the earlier steps' counts, so PostgreSQL runs only the branch chosen.
 */

/** Rows of the newest window that estimate how common the matches are. */
export const PROBE_ROWS = 1_000;
/** The most rows the newest-first walk reads before the trigram plan is cheaper. */
export const WALK_ROWS = 50_000;
/** The walk must be predicted to fill the cap with this margin, or the trigram plan runs alone. */
const MARGIN = 1.2;

/** The app's newest `rows` messages, in the candidates' order (migration 0024's index, no sort). */
function newestWindow(appId: string, rows: number): RawBuilder<unknown> {
  return sql`(select * from messages where app_id = ${appId} order by created_at desc, id asc limit ${rows})`;
}

const order = sql`order by ${sql.ref(`${MSG}.created_at`)} desc, ${sql.ref(`${MSG}.id`)} asc`;

/**
 * `conditions` apply to the alias `sm` (every condition of the search: app, channels, visibility, text, filter,
 * cursor); `trigram` is the plan that reads every match through the trigram index and keeps the newest `cap`.
 */
export function pgNewestMatches(
  appId: string,
  conditions: RawBuilder<boolean>,
  trigram: Expression<unknown>,
  cap: number,
): RawBuilder<unknown> {
  const sm = sql.ref(MSG);
  const minimum = Math.ceil(((cap * PROBE_ROWS) / WALK_ROWS) * MARGIN);
  return sql`(with probe as materialized (select count(*) as n from ${newestWindow(appId, PROBE_ROWS)} as ${sm} where ${conditions}),
walk as materialized (select ${sql.raw(`${MSG}.*`)} from ${newestWindow(appId, WALK_ROWS)} as ${sm} where ${conditions} and (select n from probe) >= ${minimum} ${order} limit ${cap})
select * from walk where (select count(*) from walk) >= ${cap}
union all
select * from (${trigram}) as trigram where (select count(*) from walk) < ${cap})`;
}
