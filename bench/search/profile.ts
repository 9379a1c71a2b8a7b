// `node --import tsx bench/search/profile.ts <file>`: where the time of GET /search's query goes on a database seeded
// by `bench:search` (BENCH_SEARCH_DB): the query plan, then each step timed alone over the same queries — the
// searcher's readable channels, the FTS5 lookup, the capped candidate scan (channel and visibility checks) and the
// whole page with its ranking.
import SQLite from 'better-sqlite3';
import { foldedWords } from '@daohuu/domain';
import { performance } from 'node:perf_hooks';
import { createDb } from '../../packages/chat-server/src/db/create-db.ts';
import {
  searchSelect,
  type SearchQuery,
} from '../../packages/chat-server/src/chat/extensions/search/repo.ts';
import { readSearchRequest } from '../../packages/chat-server/src/chat/extensions/search/request.ts';
import {
  compileSearch,
  SEARCH_CANDIDATES,
} from '../../packages/chat-server/src/chat/extensions/search/service.ts';
import { ftsQuery } from '../../packages/chat-server/src/chat/extensions/search/text-query.ts';
import { percentile } from './percentile.ts';
import { SEARCHER, SEARCHER_CHANNELS, twoWordQueries } from './searcher.ts';

const FILE = process.argv[2] ?? process.env.BENCH_SEARCH_DB;
const MESSAGES = Number(process.env.BENCH_SEARCH_MESSAGES ?? 1_000_000);
const QUERIES = Number(process.env.BENCH_SEARCH_QUERIES ?? 60);

async function main() {
  if (!FILE) throw new Error('usage: profile.ts <seeded sqlite file>');
  const actor = SEARCHER;
  const handle = createDb({ kind: 'sqlite', file: FILE });
  const raw = new SQLite(FILE, { readonly: true });
  raw.function('unicode_lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLocaleLowerCase() : value,
  );
  const compiled = (text: string): SearchQuery =>
    compileSearch(
      'sqlite',
      actor,
      readSearchRequest(actor, {
        filter_conditions: SEARCHER_CHANNELS,
        query: text,
        limit: 20,
      }),
      undefined,
      SEARCH_CANDIDATES,
    );
  const texts = twoWordQueries(MESSAGES, QUERIES);
  const typing = texts.map((q) => q.slice(0, q.indexOf(' ') + 3));
  const first = searchSelect(handle.db, compiled(texts[0]!));
  console.log(first.sql);
  const plan = raw.prepare(`explain query plan ${first.sql}`).all(...first.parameters) as {
    detail: string;
  }[];
  console.log(plan.map((row) => `  ${row.detail}`).join('\n'));
  const fts = raw.prepare(
    `select rowid from messages_fts where messages_fts match ? order by rowid desc limit ${SEARCH_CANDIDATES}`,
  );
  const ftsCount = raw.prepare(`select count(*) as n from messages_fts where messages_fts match ?`);
  const channels = raw.prepare(
    `select c.cid from channels c left join members m on m.app_id = c.app_id and m.cid = c.cid and m.user_id = 'searcher' where c.app_id = 'bench' and c.deleted_at is null and exists (select 1 from members mm where mm.app_id = c.app_id and mm.cid = c.cid and mm.user_id in ('searcher'))`,
  );
  for (const [label, list] of [
    ['two words', texts],
    ['half typed', typing],
  ] as const) {
    const t = { channels: [] as number[], fts: [] as number[], whole: [] as number[] };
    let matches = 0;
    for (const text of list) {
      const match = ftsQuery(foldedWords(text));
      let started = performance.now();
      channels.all();
      t.channels.push(performance.now() - started);
      started = performance.now();
      fts.all(match);
      t.fts.push(performance.now() - started);
      matches += (ftsCount.get(match) as { n: number }).n;
      const query = searchSelect(handle.db, compiled(text));
      started = performance.now();
      await handle.db.executeQuery(query);
      t.whole.push(performance.now() - started);
    }
    const p = (s: number[]) => `${percentile(s, 50).toFixed(1)} / ${percentile(s, 99).toFixed(1)}`;
    console.log(
      `${label}: channels ${p(t.channels)} · fts newest ${SEARCH_CANDIDATES} ${p(t.fts)} · whole ${p(t.whole)} ms (p50 / p99); mean matches ${Math.round(matches / list.length)}`,
    );
  }
  raw.close();
  await handle.close();
}

await main();
