// The baseline: a bare `ws` broadcast server with just enough of the Stream protocol for the same load generator.
// One JSON.stringify per message, then one `ws.send(buffer)` per socket: the baseline of docs/benchmark-method.md.
// Run as a child process: `node --import tsx bench/chat-fanout/baseline-server.ts [--sqlite <file>]`.
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { WebSocketServer, type WebSocket } from 'ws';
import { announceReady, exitOnStop } from './child-protocol.ts';
import { answerProfileRequests } from './phase-profiler.ts';

const sqlitePath = argValue('--sqlite');
const API_KEY = 'baseline-key';
const API_SECRET = 'baseline-secret';

const socketsByConnection = new Map<string, WebSocket>();
const rooms = new Map<string, Set<WebSocket>>();
const db = sqlitePath ? openDatabase(sqlitePath) : null;
const insertMessage = db?.prepare(
  'INSERT INTO messages (id, cid, user_id, text, created_at, data) VALUES (?, ?, ?, ?, ?, ?)',
);
const selectMessage = db?.prepare('SELECT data FROM messages WHERE id = ?');

const wss = new WebSocketServer({ noServer: true });
const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => reply(res, 500, { code: -1, message: String(error) }));
});

// Same idle keep-alive window as fastify (72 s): node's 5 s default would close the sender's sockets between steps.
server.keepAliveTimeout = 72_000;

server.on('upgrade', (req, socket, head) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (!url.pathname.endsWith('/connect')) {
    socket.destroy();
    return;
  }
  wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, url));
});

function onConnection(ws: WebSocket, url: URL): void {
  const payload = JSON.parse(url.searchParams.get('json') ?? '{}') as { user_id?: string };
  const userId = payload.user_id ?? 'anonymous';
  const connectionId = randomUUID();
  socketsByConnection.set(connectionId, ws);
  const healthCheck = { type: 'health.check', connection_id: connectionId, cid: '*' };
  ws.send(
    JSON.stringify({ ...healthCheck, created_at: new Date().toISOString(), me: ownUser(userId) }),
  );
  ws.on('message', () =>
    ws.send(JSON.stringify({ ...healthCheck, created_at: new Date().toISOString() })),
  );
  ws.on('close', () => {
    socketsByConnection.delete(connectionId);
    for (const room of rooms.values()) room.delete(ws);
  });
}

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const body = await readBody(req);
  const channel = /\/channels\/([\w-]+)\/([\w!-]+)\/(query|message)$/.exec(url.pathname);
  if (req.method === 'POST' && channel) {
    const [, type = '', id = '', action] = channel;
    const cid = `${type}:${id}`;
    if (action === 'query') {
      const ws = socketsByConnection.get(url.searchParams.get('connection_id') ?? '');
      let room = rooms.get(cid);
      if (!room) rooms.set(cid, (room = new Set()));
      if (ws) room.add(ws);
      reply(res, 201, {
        channel: { id, type, cid, config: {}, created_at: new Date().toISOString() },
        messages: [],
        members: [],
        watcher_count: room.size,
        duration: '0.1ms',
      });
      return;
    }
    const { message } = JSON.parse(body) as { message: { id?: string; text?: string } };
    const userId = url.searchParams.get('user_id') ?? 'anonymous';
    const response = messageResponse(
      message.id ?? randomUUID(),
      message.text ?? '',
      userId,
      type,
      id,
    );
    if (insertMessage) {
      insertMessage.run(
        response.id,
        cid,
        userId,
        response.text,
        response.created_at,
        JSON.stringify(response),
      );
    }
    const room = rooms.get(cid);
    const event = {
      type: 'message.new',
      cid,
      channel_id: id,
      channel_type: type,
      message_id: response.id,
      message: response,
      user: response.user,
      watcher_count: room?.size ?? 0,
      created_at: response.created_at,
      channel_last_message_at: response.created_at,
    };
    const frame = Buffer.from(JSON.stringify(event));
    if (room) for (const ws of room) ws.send(frame);
    reply(res, 201, { message: response, duration: '0.1ms' });
    return;
  }
  const messageId = /\/messages\/([^/]+)$/.exec(url.pathname)?.[1];
  if (req.method === 'GET' && messageId && selectMessage) {
    const row = selectMessage.get(decodeURIComponent(messageId)) as { data: string } | undefined;
    if (row) reply(res, 200, { message: JSON.parse(row.data) as unknown, duration: '0.1ms' });
    else reply(res, 404, { code: 16, message: 'message does not exist', StatusCode: 404 });
    return;
  }
  reply(res, 404, { code: 16, message: `no route ${req.method} ${url.pathname}`, StatusCode: 404 });
}

/** A Stream-like MessageResponse, shaped like what stream-chat's client reads (stream-chat `types.ts`). */
function messageResponse(
  id: string,
  text: string,
  userId: string,
  type: string,
  channelId: string,
) {
  const now = new Date().toISOString();
  return {
    id,
    text,
    html: `<p>${text}</p>\n`,
    type: 'regular',
    user: publicUser(userId),
    attachments: [],
    latest_reactions: [],
    own_reactions: [],
    reaction_counts: {},
    reaction_scores: {},
    reaction_groups: null,
    reply_count: 0,
    deleted_reply_count: 0,
    cid: `${type}:${channelId}`,
    created_at: now,
    updated_at: now,
    shadowed: false,
    mentioned_users: [],
    silent: false,
    pinned: false,
    pinned_at: null,
    pinned_by: null,
    pin_expires: null,
    restricted_visibility: [],
  };
}

function publicUser(id: string) {
  const at = '2026-01-01T00:00:00.000Z';
  return {
    id,
    name: id,
    role: 'user',
    created_at: at,
    updated_at: at,
    last_active: at,
    banned: false,
    online: true,
  };
}

function ownUser(id: string) {
  return {
    ...publicUser(id),
    devices: [],
    mutes: [],
    channel_mutes: [],
    unread_count: 0,
    total_unread_count: 0,
    unread_channels: 0,
    invisible: false,
  };
}

function openDatabase(path: string): Database.Database {
  const database = new Database(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.exec(
    'CREATE TABLE IF NOT EXISTS messages (id TEXT PRIMARY KEY, cid TEXT NOT NULL, user_id TEXT NOT NULL, ' +
      'text TEXT NOT NULL, created_at TEXT NOT NULL, data TEXT NOT NULL);' +
      'CREATE INDEX IF NOT EXISTS messages_cid_created ON messages (cid, created_at);',
  );
  return database;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString()));
    req.on('error', reject);
  });
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(payload),
  });
  res.end(payload);
}

function argValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo;
  announceReady({ baseURL: `http://127.0.0.1:${port}`, apiKey: API_KEY, apiSecret: API_SECRET });
});
answerProfileRequests();
exitOnStop(async () => {
  for (const ws of wss.clients) ws.terminate();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  db?.close();
});
