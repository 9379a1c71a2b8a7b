import { StreamChat } from 'stream-chat';
import { startTestChatServer } from './src/testing/harness.ts';
import SQLite from 'better-sqlite3';
const orig = SQLite.prototype.prepare;
const counts = new Map<string, number>();
let on = false;
(SQLite.prototype as any).prepare = function (sql: string) {
  const st = orig.call(this, sql);
  for (const m of ['all', 'run', 'get', 'iterate'] as const) {
    const f = (st as any)[m];
    if (typeof f === 'function') (st as any)[m] = function (...a: unknown[]) { if (on && sql.includes('from "users"')) console.log(new Error().stack!.split('\n').filter(l=>l.includes('chat-server/src')).slice(0,4).join('\n')+'\n--'); if (on) counts.set(m + ' ' + sql.slice(0, 160), (counts.get(m + ' ' + sql.slice(0, 160)) ?? 0) + 1); return f.apply(this, a); };
  }
  return st;
};
const server = await startTestChatServer();
const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
await admin.upsertUsers([{ id: 'a' }, { id: 'b' }]);
const ch = admin.channel('messaging', 'x', { created_by_id: 'a', members: ['a', 'b'] } as any);
await ch.create();
const c = new StreamChat(server.apiKey, { baseURL: server.baseURL, allowServerSideConnect: true });
await c.connectUser({ id: 'a' }, server.createToken ? server.createToken('a') : admin.createToken('a'));
const cc = c.channel('messaging', 'x');
await cc.watch();
await cc.sendMessage({ text: 'warm' });
on = true;
for (let i = 0; i < 1; i++) await cc.sendMessage({ text: 'hi ' + i });
on = false;
for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1])) console.log(v / 10, k);
await c.disconnectUser();
await server.close();
