// `npm run bench:search-pg`: GET /search's query on PostgreSQL (TEST_DATABASE_URL), over the same corpus and
// queries as bench:search, against the substring scan it replaced, side by side in one process. Seeds its own
// schema (multi-row inserts, the trigram index built once at the end); BENCH_SEARCH_PG_SCHEMA keeps a seeded schema
// between runs (reused when it holds messages, dropped at the end otherwise).
import pg from 'pg';
import { searchText } from '@daohuu/domain';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDb } from '../../packages/chat-server/src/db/create-db.ts';
import { migrateToLatest } from '../../packages/chat-server/src/db/migrate.ts';
import type { Db } from '../../packages/chat-server/src/db/schema.ts';
import {
  createSearchRepo,
  searchSelect,
  type SearchRow,
} from '../../packages/chat-server/src/chat/extensions/search/repo.ts';
import { readSearchRequest } from '../../packages/chat-server/src/chat/extensions/search/request.ts';
import { compileSearch } from '../../packages/chat-server/src/chat/extensions/search/service.ts';
import { substringSearch } from './baseline.ts';
import { createCorpus, type Corpus } from './corpus.ts';
import { SEARCHER, SEARCHER_CHANNELS } from './searcher.ts';
import { percentile } from './percentile.ts';

const URL = process.env.TEST_DATABASE_URL;
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const CHANNELS = 1_000;
const AUTHORS = 50;
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 60);
const BASELINE_QUERIES = Number(process.env.BENCH_SEARCH_BASELINE_QUERIES ?? 5);
const WARMUP = 5;
const LIMIT = 20;
const BATCH = 1_000;
const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');
const APP = 'bench';

/** Inserts `rows` (arrays of values) into `table` with one multi-row INSERT per batch. */
async function insertRows(client: pg.Client, table: string, columns: string[], rows: unknown[][]) {
  for (let at = 0; at < rows.length; at += BATCH) {
    const batch = rows.slice(at, at + BATCH);
    const values = batch.map(
      (_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(', ')})`,
    );
    await client.query(
      `insert into ${table} (${columns.join(', ')}) values ${values.join(', ')}`,
      batch.flat(),
    );
  }
}

/** The same shape as bench/search/seed.ts: channels of the searcher and one author, messages round-robin. */
async function seed(client: pg.Client, corpus: Corpus): Promise<void> {
  const now = new Date(BASE_MS).toISOString();
  await client.query(
    `insert into apps (id, api_key, name, created_at, updated_at) values ($1, $2, $1, $3, $3)`,
    [APP, `${APP}-key`, now],
  );
  const authors = Array.from({ length: AUTHORS }, (_, i) => `author-${i}`);
  await insertRows(
    client,
    'users',
    ['app_id', 'id', 'role', 'name', 'created_at', 'updated_at'],
    ['searcher', ...authors].map((id) => [APP, id, 'user', id, now, now]),
  );
  const cids = Array.from({ length: CHANNELS }, (_, i) => `messaging:room-${i}`);
  await insertRows(
    client,
    'channels',
    ['app_id', 'cid', 'type', 'id', 'created_by_id', 'member_count', 'created_at', 'updated_at'],
    cids.map((cid, i) => [APP, cid, 'messaging', `room-${i}`, authors[i % AUTHORS], 2, now, now]),
  );
  await insertRows(
    client,
    'members',
    ['app_id', 'cid', 'user_id', 'channel_role', 'created_at', 'updated_at'],
    cids.flatMap((cid, i) => [
      [APP, cid, 'searcher', 'channel_member', now, now],
      [APP, cid, authors[i % AUTHORS], 'channel_member', now, now],
    ]),
  );
  // The trigram index is built once at the end, as a restore would, instead of row by row.
  const index = await client.query<{ def: string }>(
    `select indexdef as def from pg_indexes where schemaname = current_schema() and indexname = 'messages_search_trgm'`,
  );
  await client.query('drop index if exists messages_search_trgm');
  const columns = ['app_id', 'id', 'cid', 'user_id', 'type', 'text', 'search_text'];
  const timed = [...columns, 'created_at', 'updated_at'];
  for (let at = 0; at < MESSAGES; at += 50_000) {
    const rows: unknown[][] = [];
    for (let i = at; i < Math.min(MESSAGES, at + 50_000); i++) {
      const text = corpus.message();
      const when = new Date(BASE_MS + i * 1000).toISOString();
      const cid = cids[i % CHANNELS] as string;
      const author = authors[(i % CHANNELS) % AUTHORS] as string;
      rows.push([APP, `msg-${i}`, cid, author, 'regular', text, searchText(text), when, when]);
    }
    await insertRows(client, 'messages', timed, rows);
  }
  if (index.rows[0]) await client.query(index.rows[0].def);
  await client.query('analyze');
}

async function main() {
  if (!URL) throw new Error('TEST_DATABASE_URL is required');
  const schema = process.env.BENCH_SEARCH_PG_SCHEMA ?? `bench_search_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: URL });
  await admin.connect();
  await admin.query(`create schema if not exists ${schema}`);
  await admin.query(`set search_path = ${schema}`);
  const config = {
    kind: 'postgres' as const,
    url: URL,
    schema,
    poolSize: 2,
    applicationName: 'bench-search',
    connectTimeoutMs: 5_000,
    statementTimeoutMs: 0,
  };
  const handle = createDb(config);
  const corpus = createCorpus(20_260_101);
  try {
    const existing = await admin
      .query<{ n: string }>('select count(*) as n from messages')
      .catch(() => null);
    if (existing && Number(existing.rows[0]?.n) === MESSAGES) {
      for (let i = 0; i < MESSAGES; i++) corpus.message();
      // A schema seeded before a later migration (e.g. 0024's index) is brought up to date first.
      const started = performance.now();
      await migrateToLatest(handle.db, 'postgres');
      console.log(
        `reusing schema ${schema} with ${MESSAGES.toLocaleString('en')} messages (migrated in ${((performance.now() - started) / 1000).toFixed(1)} s)`,
      );
    } else {
      await migrateToLatest(handle.db, 'postgres');
      const started = performance.now();
      await seed(admin, corpus);
      console.log(
        `seeded ${MESSAGES.toLocaleString('en')} messages in ${CHANNELS} channels in ${((performance.now() - started) / 1000).toFixed(1)} s (schema ${schema})`,
      );
    }
    const twoWords = Array.from({ length: QUERIES }, () => corpus.twoWordQuery());
    const typing = twoWords.map((q) => q.slice(0, q.indexOf(' ') + 3));
    console.log(
      `load average at start: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(
      '| query | ours p50 / p99 ms | previous p50 / p99 ms | ours / previous p50 / p99 | baseline p50 / p99 ms | ours / baseline p50 / p99 | rows per query | pages identical to previous |',
    );
    for (const [label, texts] of [
      ['two words, typed without accents', twoWords],
      ['two words, the last one half typed', typing],
    ] as const)
      console.log(await measure(handle.db, label, texts));
    console.log(
      `load average at end: ${loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    for (const text of [twoWords[0]!, mostCommon(twoWords)]) {
      const plan = await explain(admin, handle.db, text);
      console.log(`\nplan of the two-word query "${text}":\n${plan}`);
    }
  } finally {
    await handle.close();
    if (!process.env.BENCH_SEARCH_PG_SCHEMA) await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

const actor = SEARCHER;
const channelFilter = SEARCHER_CHANNELS;

/** The search repo's query; `previous`: the trigram plan alone, as before migration 0024 (pg-newest.ts). */
function compiled(text: string, previous = false) {
  const request = readSearchRequest(actor, {
    filter_conditions: channelFilter,
    query: text,
    limit: LIMIT,
  });
  return { ...compileSearch('postgres', actor, request), pgWalk: !previous };
}

/** The query whose words are the most frequent among `texts` (the Zipf head): the costly kind for a trigram index. */
function mostCommon(texts: readonly string[]): string {
  const counts = new Map<string, number>();
  const words = (text: string) => text.split(' ');
  for (const word of texts.flatMap(words)) counts.set(word, (counts.get(word) ?? 0) + 1);
  const score = (text: string) => words(text).reduce((sum, w) => sum + counts.get(w)!, 0);
  return [...texts].sort((a, b) => score(b) - score(a))[0]!;
}

async function measure(db: Db, label: string, texts: readonly string[]): Promise<string> {
  const repo = createSearchRepo(db);
  const ours: number[] = [];
  const previous: number[] = [];
  const baseline: number[] = [];
  let rows = 0;
  let same = 0;
  for (const text of texts.slice(0, WARMUP)) await repo.messages(compiled(text));
  const timed = async (fn: () => Promise<unknown>, into: number[]) => {
    const started = performance.now();
    const result = await fn();
    into.push(performance.now() - started);
    return result;
  };
  for (const [i, text] of texts.entries()) {
    const sides = [
      async () => {
        const page = (await timed(() => repo.messages(compiled(text)), ours)) as SearchRow[];
        rows += page.length;
        return page.map((row) => row.id).join();
      },
      async () => {
        const page = (await timed(
          () => repo.messages(compiled(text, true)),
          previous,
        )) as SearchRow[];
        return page.map((row) => row.id).join();
      },
    ];
    // Alternate which side runs first, so neither always meets a warm cache.
    if (i % 2 === 1) sides.reverse();
    const [a, b] = [await sides[0]!(), await sides[1]!()];
    if (a === b) same++;
    if (i < BASELINE_QUERIES)
      await timed(
        () => substringSearch(db, actor, channelFilter, text, LIMIT, 'postgres'),
        baseline,
      );
  }
  const p = (s: number[], q: number) => percentile(s, q);
  const ms = (s: number[]) => `${p(s, 50).toFixed(1)} / ${p(s, 99).toFixed(1)}`;
  const ratio = (a: number[], b: number[]) =>
    `${(p(a, 50) / p(b, 50)).toFixed(3)} / ${(p(a, 99) / p(b, 99)).toFixed(3)}`;
  return `| ${label} | ${ms(ours)} | ${ms(previous)} | ${ratio(ours, previous)} | ${ms(baseline)} | ${ratio(ours, baseline)} | ${(rows / texts.length).toFixed(1)} | ${same} of ${texts.length} |`;
}

async function explain(admin: pg.Client, db: Db, text: string): Promise<string> {
  const { sql, parameters } = searchSelect(db, compiled(text));
  const result = await admin.query<{ 'QUERY PLAN': string }>(`explain analyze ${sql}`, [
    ...parameters,
  ]);
  return result.rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n');
}

await main();
