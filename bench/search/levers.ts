// `node --import tsx bench/search/levers.ts <file>`: GET /search's SQLite query over a database seeded by
// `bench:search` (BENCH_SEARCH_DB), run in several variants side by side in one process — the connection's page
// cache and memory map (the pragmas of db/create-db.ts) and changes to the query text — rotating which variant runs
// first on each query, so each one's p50 / p99 is measured under the same load as the others. Every variant must
// return the same page as the first; the count of identical pages is printed per variant.
import SQLite from 'better-sqlite3';
import { foldVietnamese } from '@daohuu/domain';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { createDb } from '../../packages/chat-server/src/db/create-db.ts';
import { searchSelect } from '../../packages/chat-server/src/chat/extensions/search/repo.ts';
import { readSearchRequest } from '../../packages/chat-server/src/chat/extensions/search/request.ts';
import { compileSearch } from '../../packages/chat-server/src/chat/extensions/search/service.ts';
import { percentile } from './percentile.ts';
import { SEARCHER, SEARCHER_CHANNELS, twoWordQueries } from './searcher.ts';

const FILE = process.argv[2] ?? process.env.BENCH_SEARCH_DB;
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 60);
const ONLY = process.env.BENCH_SEARCH_VARIANTS?.split(',');

type Statement = { sql: string; parameters: readonly unknown[] };

interface Variant {
  name: string;
  pragmas: string[];
  rewrite?: (statement: Statement) => Statement;
}

// better-sqlite3's defaults, what db/create-db.ts set before the page cache and memory map were tuned.
const DEFAULT_CACHE = ['cache_size = -16000', 'mmap_size = 0'];
// What db/create-db.ts sets now.
const TUNED = ['cache_size = -65536', 'mmap_size = 1073741824'];
// The exact-text check as it was before ASCII queries used SQLite's own lower() (text-query.ts).
const javascriptLower = (s: Statement): Statement => ({
  ...s,
  sql: s.sql.replace('lower("sm"."text")', 'unicode_lower("sm"."text")'),
});
const VARIANTS: Variant[] = [
  { name: 'before (16 MB cache, no mmap)', pragmas: DEFAULT_CACHE, rewrite: javascriptLower },
  {
    name: 'cache 256 MB',
    pragmas: ['cache_size = -262144', 'mmap_size = 0'],
    rewrite: javascriptLower,
  },
  {
    name: 'mmap 256 MB',
    pragmas: ['cache_size = -16000', 'mmap_size = 268435456'],
    rewrite: javascriptLower,
  },
  {
    name: 'mmap 1 GB',
    pragmas: ['cache_size = -16000', 'mmap_size = 1073741824'],
    rewrite: javascriptLower,
  },
  { name: 'cache 64 MB + mmap 1 GB, unicode_lower()', pragmas: TUNED, rewrite: javascriptLower },
  // What GET /search runs now: the tuned connection, and lower() for a query typed in ASCII.
  { name: 'cache 64 MB + mmap 1 GB, lower() for ASCII', pragmas: TUNED },
  // A diagnostic, not a plan: what the exact-text check of the relevance costs (the pages may differ).
  {
    name: 'diagnostic: no exact-text check',
    pragmas: TUNED,
    rewrite: (s) => ({
      ...s,
      sql: s.sql.replace(/instr\((unicode_)?lower\("sm"\."text"\), \?\) > 0/, '? is null'),
    }),
  },
];

function open(pragmas: string[]): SQLite.Database {
  const db = new SQLite(FILE!, { readonly: true });
  for (const pragma of pragmas) db.pragma(pragma);
  db.function('unicode_lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLocaleLowerCase() : value,
  );
  db.function('fold_vi', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? foldVietnamese(value) : value,
  );
  return db;
}

async function main() {
  if (!FILE) throw new Error('usage: levers.ts <seeded sqlite file>');
  const actor = SEARCHER;
  const handle = createDb({ kind: 'sqlite', file: FILE });
  const compiled = (text: string): Statement =>
    searchSelect(
      handle.db,
      compileSearch(
        'sqlite',
        actor,
        readSearchRequest(actor, {
          filter_conditions: SEARCHER_CHANNELS,
          query: text,
          limit: 20,
        }),
      ),
    );
  const variants = VARIANTS.filter((v) => !ONLY || ONLY.some((o) => v.name.startsWith(o)));
  const runners = variants.map((variant) => ({ variant, db: open(variant.pragmas) }));
  const texts = twoWordQueries(MESSAGES, QUERIES);
  const typing = texts.map((q) => q.slice(0, q.indexOf(' ') + 3));
  console.log(
    `load average at start: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  for (const [label, list] of [
    ['two words, typed without accents', texts],
    ['two words, the last one half typed', typing],
  ] as const) {
    const times = runners.map(() => [] as number[]);
    const cpu = runners.map(() => [] as number[]);
    const same = runners.map(() => 0);
    for (const [i, text] of list.entries()) {
      const base = compiled(text);
      const pages: string[] = [];
      // Rotate which variant runs first, so none always meets (or warms) the cache for the others.
      for (let k = 0; k < runners.length; k++) {
        const j = (i + k) % runners.length;
        const { variant, db } = runners[j]!;
        const statement = variant.rewrite ? variant.rewrite(base) : base;
        const prepared = db.prepare(statement.sql);
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        const rows = prepared.all(...statement.parameters) as { id: string }[];
        times[j]!.push(performance.now() - started);
        const used = process.cpuUsage(cpuStarted);
        cpu[j]!.push((used.user + used.system) / 1000);
        pages[j] = rows.map((row) => row.id).join();
      }
      pages.forEach((page, j) => {
        if (page === pages[0]) same[j]!++;
      });
    }
    const p = (s: number[]) => `${percentile(s, 50).toFixed(1)} / ${percentile(s, 99).toFixed(1)}`;
    const [first] = times;
    console.log(`\n${label} (${list.length} queries; load ${loadavg()[0]!.toFixed(2)})`);
    console.log(
      '| variant | p50 / p99 ms | ratio to the first p50 / p99 | CPU p50 / p99 ms | pages identical to the first |',
    );
    runners.forEach(({ variant }, j) => {
      const r = (q: number) => (percentile(times[j]!, q) / percentile(first!, q)).toFixed(2);
      console.log(
        `| ${variant.name} | ${p(times[j]!)} | ${r(50)} / ${r(99)} | ${p(cpu[j]!)} | ${same[j]} of ${list.length} |`,
      );
    });
  }
  for (const { db } of runners) db.close();
  await handle.close();
}

await main();
