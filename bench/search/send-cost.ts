// The send path with the index kept in step against without it: two real chat servers in this process, each on its
// own SQLite file; on one the FTS5 triggers are dropped after start, so its sends skip the index write (both still
// fold the text, about 10 µs). Sends are sequential server-side `sendMessage` calls, rounds alternating between them.
import SQLite from 'better-sqlite3';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { StreamChat } from 'stream-chat';
import { startTestChatServer } from '../../packages/chat-server/src/testing/harness.ts';
import type { Corpus } from './corpus.ts';

const ROUNDS = 8;
const SENDS_PER_ROUND = 200;

async function server(file: string, indexed: boolean) {
  const running = await startTestChatServer({ config: { db: { kind: 'sqlite', file } } });
  if (!indexed) {
    const db = new SQLite(file);
    for (const trigger of ['messages_fts_insert', 'messages_fts_delete', 'messages_fts_update'])
      db.exec(`drop trigger ${trigger}`);
    db.close();
  }
  const client = new StreamChat(running.apiKey, running.apiSecret, { baseURL: running.baseURL });
  await client.upsertUsers([{ id: 'sender' }]);
  const channel = client.channel('messaging', 'bench', {
    created_by_id: 'sender',
    members: ['sender'],
  });
  await channel.create();
  return { running, send: (text: string) => channel.sendMessage({ user_id: 'sender', text }) };
}

async function round(side: { send: (text: string) => Promise<unknown> }, texts: string[]) {
  const started = performance.now();
  for (const text of texts) await side.send(text);
  return performance.now() - started;
}

export async function measureSends(dir: string, corpus: Corpus) {
  const indexed = await server(join(dir, 'send-indexed.sqlite'), true);
  const plain = await server(join(dir, 'send-plain.sqlite'), false);
  const texts = Array.from({ length: SENDS_PER_ROUND }, () => corpus.message());
  await round(indexed, texts);
  await round(plain, texts);
  const ratios: number[] = [];
  let indexedMs = 0;
  let plainMs = 0;
  for (let r = 0; r < ROUNDS; r++) {
    const first = r % 2 === 0 ? indexed : plain;
    const second = first === indexed ? plain : indexed;
    const a = await round(first, texts);
    const b = await round(second, texts);
    const [withIndex, without] = first === indexed ? [a, b] : [b, a];
    indexedMs += withIndex;
    plainMs += without;
    ratios.push(withIndex / without);
  }
  await indexed.running.close();
  await plain.running.close();
  ratios.sort((x, y) => x - y);
  const sends = ROUNDS * SENDS_PER_ROUND;
  return {
    rounds: ROUNDS,
    sendsPerRound: SENDS_PER_ROUND,
    indexedMsPerSend: indexedMs / sends,
    plainMsPerSend: plainMs / sends,
    costRatio: ((ratios[ROUNDS / 2 - 1] as number) + (ratios[ROUNDS / 2] as number)) / 2,
  };
}
