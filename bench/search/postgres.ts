// `npm run bench:search-pg`: GET /search's query on PostgreSQL (TEST_DATABASE_URL), over the same corpus and
// queries as bench:search, against the substring scan it replaced, side by side in one process. Seeds its own
// schema (multi-row inserts, the trigram index built once at the end); BENCH_SEARCH_PG_SCHEMA keeps a seeded schema
// between runs (reused when it holds messages, dropped at the end otherwise).
import pg from 'pg';
import { searchText } from '@daohuu/domain';
import { performance } from 'node:perf_hooks';
import { createDb } from '../../packages/chat-server/src/db/create-db.ts';
import { migrateToLatest } from '../../packages/chat-server/src/db/migrate.ts';
import type { Db } from '../../packages/chat-server/src/db/schema.ts';
import type { Actor } from '../../packages/chat-server/src/chat/core/access/access.ts';
import {
  createSearchRepo,
  searchSelect,
} from '../../packages/chat-server/src/chat/extensions/search/repo.ts';
import { readSearchRequest } from '../../packages/chat-server/src/chat/extensions/search/request.ts';
import { compileSearch } from '../../packages/chat-server/src/chat/extensions/search/service.ts';
import { substringSearch } from './baseline.ts';
import { createCorpus, type Corpus } from './corpus.ts';
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
      console.log(`reusing schema ${schema} with ${MESSAGES.toLocaleString('en')} messages`);
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
    for (const [label, texts] of [
      ['two words, typed without accents', twoWords],
      ['two words, the last one half typed', typing],
    ] as const)
      console.log(await measure(handle.db, label, texts));
    const plan = await explain(admin, handle.db, twoWords[0]!);
    console.log(`\nplan of the first two-word query:\n${plan}`);
  } finally {
    await handle.close();
    if (!process.env.BENCH_SEARCH_PG_SCHEMA) await admin.query(`drop schema ${schema} cascade`);
    await admin.end();
  }
}

const actor: Actor = {
  appId: APP,
  userId: 'searcher',
  role: 'user',
  isServer: false,
  connectionId: null,
};
const channelFilter = { members: { $in: ['searcher'] } };

function compiled(text: string) {
  const request = readSearchRequest(actor, {
    filter_conditions: channelFilter,
    query: text,
    limit: LIMIT,
  });
  return compileSearch('postgres', actor, request);
}

async function measure(db: Db, label: string, texts: readonly string[]): Promise<string> {
  const repo = createSearchRepo(db);
  const ours: number[] = [];
  const baseline: number[] = [];
  let rows = 0;
  for (const text of texts.slice(0, WARMUP)) await repo.messages(compiled(text));
  for (const [i, text] of texts.entries()) {
    const runOurs = async () => {
      const started = performance.now();
      rows += (await repo.messages(compiled(text))).length;
      ours.push(performance.now() - started);
    };
    const runBase = async () => {
      const started = performance.now();
      await substringSearch(db, actor, channelFilter, text, LIMIT, 'postgres');
      baseline.push(performance.now() - started);
    };
    // Alternate which side runs first, so neither always meets a warm cache.
    if (i >= BASELINE_QUERIES) await runOurs();
    else if (i % 2 === 0) await runOurs().then(runBase);
    else await runBase().then(runOurs);
  }
  const p = (s: number[], q: number) => percentile(s, q);
  const ms = (s: number[]) => `${p(s, 50).toFixed(1)} / ${p(s, 99).toFixed(1)}`;
  return `| ${label} | ${ms(ours)} | ${ms(baseline)} | ${(p(ours, 50) / p(baseline, 50)).toFixed(3)} / ${(p(ours, 99) / p(baseline, 99)).toFixed(3)} | ${(rows / texts.length).toFixed(1)} |`;
}

async function explain(admin: pg.Client, db: Db, text: string): Promise<string> {
  const { sql, parameters } = searchSelect(db, compiled(text));
  const result = await admin.query<{ 'QUERY PLAN': string }>(`explain analyze ${sql}`, [
    ...parameters,
  ]);
  return result.rows.map((row) => `  ${row['QUERY PLAN']}`).join('\n');
}

await main();
