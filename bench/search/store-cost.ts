// The cost the search index adds to storing a message: the same prepared insert into two migrated databases, one
// with the index (search_text folded, FTS5 triggers) and one without (triggers and FTS table dropped, no folding).
import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { searchText } from '@daohuu/domain';
import { createDb } from '../../packages/chat-server/src/db/create-db.ts';
import { migrateToLatest } from '../../packages/chat-server/src/db/migrate.ts';
import type { Corpus } from './corpus.ts';

const BATCH = 100; // db/write-queue.ts commits sends in groups like this under load
const ROUNDS = 10;
const ROWS_PER_ROUND = 5_000;

async function prepare(file: string, indexed: boolean) {
  const handle = createDb({ kind: 'sqlite', file });
  await migrateToLatest(handle.db, 'sqlite');
  await handle.close();
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  if (!indexed) {
    for (const trigger of ['messages_fts_insert', 'messages_fts_delete', 'messages_fts_update'])
      db.exec(`drop trigger ${trigger}`);
    db.exec('drop table messages_fts');
  }
  const now = new Date().toISOString();
  db.prepare(
    `insert into apps (id, api_key, name, created_at, updated_at) values ('a', 'k', 'a', ?, ?)`,
  ).run(now, now);
  db.prepare(
    `insert into channels (app_id, cid, type, id, created_at, updated_at) values ('a', 'messaging:x', 'messaging', 'x', ?, ?)`,
  ).run(now, now);
  const insert = db.prepare(
    `insert into messages (app_id, id, cid, user_id, type, text, search_text, created_at, updated_at) values ('a', ?, 'messaging:x', 'u', 'regular', ?, ?, ?, ?)`,
  );
  let next = 0;
  const batch = db.transaction((texts: string[]) => {
    for (const text of texts) {
      const at = new Date(Date.now()).toISOString();
      insert.run(`m-${next++}`, text, indexed ? searchText(text) : '', at, at);
    }
  });
  return { db, batch };
}

function round(side: { batch: (texts: string[]) => void }, texts: string[]): number {
  const started = performance.now();
  for (let i = 0; i < texts.length; i += BATCH) side.batch(texts.slice(i, i + BATCH));
  return performance.now() - started;
}

export async function measureStoring(dir: string, corpus: Corpus) {
  const indexed = await prepare(join(dir, 'indexed.sqlite'), true);
  const plain = await prepare(join(dir, 'plain.sqlite'), false);
  const texts = Array.from({ length: ROWS_PER_ROUND }, () => corpus.message());
  round(indexed, texts);
  round(plain, texts);
  const ratios: number[] = [];
  let indexedMs = 0;
  let plainMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const [a, b] = r % 2 === 0 ? [round(indexed, texts), round(plain, texts)] : [0, 0];
    const [c, d] = r % 2 === 1 ? [round(plain, texts), round(indexed, texts)] : [0, 0];
    const withIndex = a + d;
    const without = b + c;
    indexedMs += withIndex;
    plainMs += without;
    ratios.push(withIndex / without);
  }
  indexed.db.close();
  plain.db.close();
  ratios.sort((x, y) => x - y);
  const rows = ROUNDS * ROWS_PER_ROUND;
  return {
    batch: BATCH,
    rounds: ROUNDS,
    rowsPerRound: ROWS_PER_ROUND,
    indexedRowsPerSec: rows / (indexedMs / 1000),
    plainRowsPerSec: rows / (plainMs / 1000),
    costRatio: ((ratios[4] as number) + (ratios[5] as number)) / 2,
  };
}
