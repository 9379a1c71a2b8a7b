// `npm run bench:search-prefix`: what an FTS5 prefix index (migration 0016) does for the lookup GET /search starts
// with. Every search treats the last typed word as a prefix (`"dai"*`); without a prefix index FTS5 merges the
// posting lists of every term starting with it, which for a common short prefix is most of the cost. Two FTS5
// tables over the same rows in one SQLite file, one as migration 0007 made it and one as 0016 makes it, answer the
// same queries alternately (the same lookup the search repo runs: the newest candidates, rowid descending).
import SQLite from 'better-sqlite3';
import { foldedWords, searchText } from '@daohuu/domain';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { ftsQuery } from '../../packages/chat-server/src/chat/extensions/search/text-query.ts';
import {
  FTS_OPTIONS,
  FTS_PREFIX_OPTION,
} from '../../packages/chat-server/src/db/migrations/0016-search-prefix-index.ts';
import { SEARCH_CANDIDATES } from '../../packages/chat-server/src/chat/extensions/search/service.ts';
import { createCorpus } from './corpus.ts';

const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 500_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 200);

function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

function seed(db: SQLite.Database): void {
  const corpus = createCorpus(7);
  db.exec(`create table docs (search_text text not null)`);
  const insert = db.prepare(`insert into docs (search_text) values (?)`);
  db.transaction(() => {
    for (let i = 0; i < MESSAGES; i++) insert.run(searchText(corpus.message()));
  })();
  for (const [name, prefix] of [
    ['fts_plain', ''],
    ['fts_prefix', `, ${FTS_PREFIX_OPTION}`],
  ] as const) {
    db.exec(
      `create virtual table ${name} using fts5(search_text, content='docs', content_rowid='rowid', ${FTS_OPTIONS}${prefix})`,
    );
    db.exec(`insert into ${name}(${name}) values ('rebuild')`);
  }
}

/**
 * The price on writes: index updates for new rows as a send makes them (the 0007 insert trigger's statement), in
 * transactions of 100, alternating between the two indexes batch by batch.
 */
function writeCost(db: SQLite.Database): string {
  const corpus = createCorpus(13);
  const batches = 200;
  const spent = { plain: 0, prefixed: 0 };
  let rowid = MESSAGES + 1;
  for (let batch = 0; batch < batches; batch++) {
    const texts = Array.from({ length: 100 }, () => searchText(corpus.message()));
    const order =
      batch % 2 === 0
        ? (['fts_plain', 'fts_prefix'] as const)
        : (['fts_prefix', 'fts_plain'] as const);
    for (const table of order) {
      const insert = db.prepare(`insert into ${table}(rowid, search_text) values (?, ?)`);
      const started = performance.now();
      db.transaction(() => texts.forEach((text, i) => insert.run(rowid + i, text)))();
      spent[table === 'fts_plain' ? 'plain' : 'prefixed'] += performance.now() - started;
    }
    rowid += texts.length;
  }
  const rate = (ms: number) => Math.round((batches * 100) / (ms / 1000)).toLocaleString('en');
  return `index writes, ${batches} transactions of 100: with prefixes ${rate(spent.prefixed)} rows/s, without ${rate(spent.plain)} rows/s, time ratio ${(spent.prefixed / spent.plain).toFixed(2)}`;
}

function queries(): { label: string; texts: string[] }[] {
  const corpus = createCorpus(11);
  const whole = Array.from({ length: QUERIES }, () => corpus.twoWordQuery());
  // Half typed: the last word cut to 2 or 3 letters, where a prefix lookup is widest.
  const half = whole.map((text, i) => {
    const [first, last = ''] = text.split(' ');
    return `${first} ${last.slice(0, 2 + (i % 2))}`;
  });
  return [
    { label: 'two words, typed without accents', texts: whole },
    { label: 'two words, the last one half typed', texts: half },
  ];
}

function main(): void {
  const dir = mkdtempSync(join(tmpdir(), 'bench-prefix-'));
  try {
    const db = new SQLite(join(dir, 'prefix.sqlite'));
    db.pragma('journal_mode = WAL');
    const seeding = performance.now();
    seed(db);
    console.log(
      `seeded ${MESSAGES.toLocaleString('en')} rows in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
    );
    const size = (table: string) =>
      (
        db.prepare(`select sum(length(block)) as bytes from ${table}_data`).get() as {
          bytes: number;
        }
      ).bytes;
    console.log(
      `index size: plain ${(size('fts_plain') / 1e6).toFixed(1)} MB, with prefixes ${(size('fts_prefix') / 1e6).toFixed(1)} MB`,
    );
    const lookup = (table: string) =>
      db.prepare(
        `select rowid from ${table} where ${table} match ? order by rowid desc limit ${SEARCH_CANDIDATES}`,
      );
    const plain = lookup('fts_plain');
    const prefixed = lookup('fts_prefix');
    const rows: string[] = [];
    for (const { label, texts } of queries()) {
      const times = { plain: [] as number[], prefixed: [] as number[] };
      let differing = 0;
      texts.forEach((text, i) => {
        const match = ftsQuery(foldedWords(text));
        const run = (statement: SQLite.Statement) => {
          const started = performance.now();
          const found = statement.all(match) as { rowid: number }[];
          return { ms: performance.now() - started, ids: found.map((row) => row.rowid).join(',') };
        };
        // Alternate which side goes first so the page cache favours neither.
        let without;
        let withPrefix;
        if (i % 2 === 0) {
          without = run(plain);
          withPrefix = run(prefixed);
        } else {
          withPrefix = run(prefixed);
          without = run(plain);
        }
        times.plain.push(without.ms);
        times.prefixed.push(withPrefix.ms);
        if (without.ids !== withPrefix.ids) differing += 1;
      });
      const p = (s: number[], q: number) => percentile(s, q).toFixed(1);
      rows.push(
        `| ${label} | ${p(times.prefixed, 50)} / ${p(times.prefixed, 99)} | ${p(times.plain, 50)} / ${p(times.plain, 99)} | ${(percentile(times.prefixed, 50) / percentile(times.plain, 50)).toFixed(2)} / ${(percentile(times.prefixed, 99) / percentile(times.plain, 99)).toFixed(2)} | ${texts.length - differing} of ${texts.length} |`,
      );
    }
    console.log(
      `\n| query (${QUERIES} each) | prefix index p50 / p99 ms | without p50 / p99 ms | ratio p50 / p99 | same candidates |`,
    );
    console.log('| --- | ---: | ---: | ---: | ---: |');
    for (const row of rows) console.log(row);
    console.log(`\n${writeCost(db)}`);
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main();
