// `npm run bench:search`: GET /search's query over 1,000,000 stored messages in 1,000 channels (SQLite), against the
// substring scan it replaced, side by side in one process; then the cost the index adds to storing a message.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createDb } from '../../packages/chat-server/src/db/create-db.ts';
import { migrateToLatest } from '../../packages/chat-server/src/db/migrate.ts';
import { createSearchRepo } from '../../packages/chat-server/src/chat/extensions/search/repo.ts';
import { readSearchRequest } from '../../packages/chat-server/src/chat/extensions/search/request.ts';
import {
  compileSearch,
  SEARCH_CANDIDATES,
} from '../../packages/chat-server/src/chat/extensions/search/service.ts';
import { substringSearch } from './baseline.ts';
import { createCorpus, type Corpus } from './corpus.ts';
import { SEARCHER, SEARCHER_CHANNELS } from './searcher.ts';
import { seed } from './seed.ts';
import { measureSends } from './send-cost.ts';
import { measureStoring } from './store-cost.ts';

const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const CHANNELS = 1_000;
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 60);
// The baseline scans every message of 500 channels per query (10–25 s each at a million rows): a few queries only.
const BASELINE_QUERIES = Number(process.env.BENCH_SEARCH_BASELINE_QUERIES ?? 5);
const WARMUP = 5;
// A database file to keep between runs: seeded when missing, reused (not reseeded) when present.
const KEEP_FILE = process.env.BENCH_SEARCH_DB;
// The write-cost measures do not depend on the query code; BENCH_SEARCH_WRITES=0 skips them.
const WRITES = process.env.BENCH_SEARCH_WRITES !== '0';
const LIMIT = 20;

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

async function timed(fn: () => Promise<number>): Promise<{ ms: number; rows: number }> {
  const started = performance.now();
  const rows = await fn();
  return { ms: performance.now() - started, rows };
}

type Line = {
  label: string;
  ours: number[];
  previous: number[];
  baseline: number[];
  oursRows: number;
  baseRows: number;
  /** Queries whose page is the same, message for message, as the previous implementation's. */
  samePages: number;
};

async function compareQueries(file: string, queries: { label: string; texts: string[] }[]) {
  const handle = createDb({ kind: 'sqlite', file });
  const repo = createSearchRepo(handle.db);
  const actor = SEARCHER;
  const channelFilter = SEARCHER_CHANNELS;
  // `previous`: the same query without the candidate cap, as GET /search ran before it (every match scored).
  const pages = new Map<string, string>();
  const run = async (query: string, candidates: number | null, side: string) => {
    const request = readSearchRequest(actor, {
      filter_conditions: channelFilter,
      query,
      limit: LIMIT,
    });
    const rows = await repo.messages(
      compileSearch('sqlite', actor, request, undefined, candidates ?? null),
    );
    pages.set(`${side}:${query}`, rows.map((row) => row.id).join());
    return rows.length;
  };
  const ours = (query: string) => run(query, SEARCH_CANDIDATES, 'ours');
  const previous = (query: string) => run(query, null, 'previous');
  const baseline = (query: string) =>
    substringSearch(handle.db, actor, channelFilter, query, LIMIT);
  const lines: Line[] = [];
  for (const { label, texts } of queries) {
    for (const text of texts.slice(0, WARMUP)) await ours(text);
    const line: Line = {
      label,
      ours: [],
      previous: [],
      baseline: [],
      oursRows: 0,
      baseRows: 0,
      samePages: 0,
    };
    for (const [i, text] of texts.entries()) {
      // Alternate which side runs first, so neither always meets a warm cache.
      const runOurs = async () => {
        const timePrevious = async () => line.previous.push((await timed(() => previous(text))).ms);
        if (i % 2 === 1) await timePrevious();
        const r = await timed(() => ours(text));
        line.ours.push(r.ms);
        line.oursRows += r.rows;
        if (i % 2 === 0) await timePrevious();
        if (pages.get(`ours:${text}`) === pages.get(`previous:${text}`)) line.samePages++;
      };
      const runBase = async () => {
        const r = await timed(() => baseline(text));
        line.baseline.push(r.ms);
        line.baseRows += r.rows;
      };
      if (i >= BASELINE_QUERIES) await runOurs();
      else if (i % 2 === 0) await runOurs().then(runBase);
      else await runBase().then(runOurs);
    }
    lines.push(line);
    console.log(`measured: ${label}`);
  }
  await handle.close();
  return lines;
}

function tableRow(line: Line): string {
  const pair = (samples: number[]) => [percentile(samples, 50), percentile(samples, 99)] as const;
  const [o50, o99] = pair(line.ours);
  const [p50, p99] = pair(line.previous);
  const [b50, b99] = pair(line.baseline);
  const ms = (a: number, b: number) => `${a.toFixed(1)} / ${b.toFixed(1)}`;
  const ratio = (a: number, b: number) => `${a.toFixed(3)} / ${b.toFixed(3)}`;
  const baseQueries = Math.min(QUERIES, BASELINE_QUERIES);
  return `| ${line.label} | ${ms(o50, o99)} | ${ms(p50, p99)} | ${ratio(o50 / p50, o99 / p99)} | ${ms(b50, b99)} | ${ratio(o50 / b50, o99 / b99)} | ${(line.oursRows / QUERIES).toFixed(1)} / ${(line.baseRows / Math.max(1, baseQueries)).toFixed(1)} | ${line.samePages} of ${line.ours.length} |`;
}

async function seedFile(file: string, corpus: Corpus) {
  const migrated = createDb({ kind: 'sqlite', file });
  await migrateToLatest(migrated.db, 'sqlite');
  await migrated.close();
  const seedStarted = performance.now();
  const shape = {
    appId: 'bench',
    searcherId: 'searcher',
    channels: CHANNELS,
    messages: MESSAGES,
    authors: 50,
  };
  seed(file, shape, corpus);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  console.log(
    `seeded ${MESSAGES.toLocaleString('en')} messages in ${CHANNELS} channels in ${seedSeconds.toFixed(1)} s`,
  );
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
  const file = KEEP_FILE ?? join(dir, 'chat.sqlite');
  try {
    const corpus = createCorpus(20_260_101);
    if (KEEP_FILE && existsSync(KEEP_FILE)) {
      // Draw the seeded messages again, so the queries below are the ones a run that seeds would make.
      for (let i = 0; i < MESSAGES; i++) corpus.message();
      console.log(
        `reusing ${KEEP_FILE}, seeded earlier with ${MESSAGES.toLocaleString('en')} messages`,
      );
    } else await seedFile(file, corpus);
    const twoWords = Array.from({ length: QUERIES }, () => corpus.twoWordQuery());
    const typing = twoWords.map((q) => q.slice(0, q.indexOf(' ') + 3));
    const load = () =>
      loadavg()
        .map((l) => l.toFixed(2))
        .join(' ');
    console.log(`load average before the queries: ${load()}`);
    const lines = await compareQueries(file, [
      { label: 'two words, typed without accents', texts: twoWords },
      { label: 'two words, the last one half typed', texts: typing },
    ]);
    console.log(
      `\n${QUERIES} queries per line (baseline: the first ${BASELINE_QUERIES}), limit ${LIMIT}, searcher a member of all ${CHANNELS} channels; load average after: ${load()}`,
    );
    console.log(
      `previous: the same query without the candidate cap; pages identical to previous are counted per line`,
    );
    console.log(
      '| query | ours p50 / p99 ms | previous p50 / p99 ms | ours / previous p50 / p99 | baseline p50 / p99 ms | ours / baseline p50 / p99 | rows per query ours / baseline | pages identical to previous |',
    );
    console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const line of lines) console.log(tableRow(line));
    if (!WRITES) return;
    const store = await measureStoring(dir, corpus);
    console.log(
      `\nstoring a message (transactions of ${store.batch}, ${store.rounds} rounds of ${store.rowsPerRound} rows per side)`,
    );
    console.log(
      `with the index: ${Math.round(store.indexedRowsPerSec).toLocaleString('en')} rows/s; without: ${Math.round(store.plainRowsPerSec).toLocaleString('en')} rows/s; cost ratio (time with / without, median of rounds): ${store.costRatio.toFixed(3)}`,
    );
    const sends = await measureSends(dir, corpus);
    console.log(
      `\nsending a message through the server (${sends.rounds} rounds of ${sends.sendsPerRound} sequential sends per side)`,
    );
    console.log(
      `with the index: ${sends.indexedMsPerSend.toFixed(3)} ms/send; without: ${sends.plainMsPerSend.toFixed(3)} ms/send; cost ratio (median of rounds): ${sends.costRatio.toFixed(3)}`,
    );
  } finally {
    // A kept database file lives outside `dir`.
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
