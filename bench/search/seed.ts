// Seeds a chat database directly through better-sqlite3 (one transaction, prepared statements), far faster than
// sending through the server: the bench measures searching stored messages, not storing them.
import SQLite from 'better-sqlite3';
import { searchText } from '@daohuu/domain';
import type { Corpus } from './corpus.ts';

export interface SeedShape {
  appId: string;
  searcherId: string;
  channels: number;
  messages: number;
  authors: number;
}

const BASE_MS = Date.parse('2026-01-01T00:00:00.000Z');

export function seed(file: string, shape: SeedShape, corpus: Corpus): void {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const now = new Date(BASE_MS).toISOString();
  // The index is built once at the end ('rebuild', as migration 0007 does) instead of row by row.
  const triggers = db
    .prepare(
      `select name, sql from sqlite_master where type = 'trigger' and name like 'messages_fts_%'`,
    )
    .all() as { name: string; sql: string }[];
  const run = db.transaction(() => {
    for (const trigger of triggers) db.exec(`drop trigger ${trigger.name}`);
    db.prepare(
      `insert into apps (id, api_key, name, created_at, updated_at) values (?, ?, ?, ?, ?)`,
    ).run(shape.appId, `${shape.appId}-key`, shape.appId, now, now);
    const user = db.prepare(
      `insert into users (app_id, id, role, name, created_at, updated_at) values (?, ?, 'user', ?, ?, ?)`,
    );
    const authors = Array.from({ length: shape.authors }, (_, i) => `author-${i}`);
    for (const id of [shape.searcherId, ...authors]) user.run(shape.appId, id, id, now, now);
    const channel = db.prepare(
      `insert into channels (app_id, cid, type, id, created_by_id, member_count, created_at, updated_at) values (?, ?, 'messaging', ?, ?, 2, ?, ?)`,
    );
    const member = db.prepare(
      `insert into members (app_id, cid, user_id, channel_role, created_at, updated_at) values (?, ?, ?, 'channel_member', ?, ?)`,
    );
    const cids: string[] = [];
    for (let i = 0; i < shape.channels; i++) {
      const id = `room-${i}`;
      const cid = `messaging:${id}`;
      const author = authors[i % authors.length] as string;
      channel.run(shape.appId, cid, id, author, now, now);
      member.run(shape.appId, cid, shape.searcherId, now, now);
      member.run(shape.appId, cid, author, now, now);
      cids.push(cid);
    }
    const message = db.prepare(
      `insert into messages (app_id, id, cid, user_id, type, text, search_text, created_at, updated_at) values (?, ?, ?, ?, 'regular', ?, ?, ?, ?)`,
    );
    for (let i = 0; i < shape.messages; i++) {
      const text = corpus.message();
      const at = new Date(BASE_MS + i * 1000).toISOString();
      const cid = cids[i % cids.length] as string;
      const author = authors[(i % cids.length) % authors.length] as string;
      message.run(shape.appId, `msg-${i}`, cid, author, text, searchText(text), at, at);
    }
    db.exec(`insert into messages_fts(messages_fts) values ('rebuild')`);
    for (const trigger of triggers) db.exec(trigger.sql);
  });
  run();
  db.close();
}
