import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseConfig, type ChatServerConfigInput } from '../../src/config.ts';
import { createDb } from '../../src/db/create-db.ts';
import { migrateToLatest } from '../../src/db/migrate.ts';
import { createPostgresSchema, type TestChatServer } from '../../src/testing/harness.ts';
import type { StreamChat } from 'stream-chat';
import {
  connectUser,
  contractEnvOn,
  disconnectClients,
  type ContractEnv,
} from '../contract/helpers.ts';
import { startNginx, type RunningNginx } from './nginx.ts';
import { spawnChatNode, type ChatNodeProcess } from './node-process.ts';

/** Two chat nodes in child processes sharing a database and Redis, behind the shipped nginx site. */
export interface ProcessCluster {
  nodes: ChatNodeProcess[];
  nginx: RunningNginx;
  /** The contract fixtures, every client and the server-side client going through nginx. */
  env: ContractEnv;
  /** Fixtures that talk to one node directly, bypassing nginx (a client that must not move). */
  directEnv(node: ChatNodeProcess): ContractEnv;
  /** Disconnects every client, stops nginx and the nodes still running, drops the database. */
  close(): Promise<void>;
}

export interface ClusterOptions {
  redisUrl: string;
  /** Names the temp files and the Redis key prefix. */
  label: string;
  /** PostgreSQL to use instead of the project's choice (a shared SQLite file, or TEST_DATABASE_URL). */
  postgresUrl?: string;
  presenceTtlMs?: number;
}

/** Starts the two nodes and nginx; the database is fresh (a new SQLite file or a new PostgreSQL schema). */
export async function startProcessCluster(options: ClusterOptions): Promise<ProcessCluster> {
  const dir = mkdtempSync(join(tmpdir(), `chat-${options.label}-`));
  const { db, drop } = await freshDatabase(options, dir);
  const app = {
    key: `k-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(16).toString('hex'),
  };
  const config: ChatServerConfigInput = {
    apps: [app],
    db,
    pubsub: {
      kind: 'redis',
      url: options.redisUrl,
      keyPrefix: `${options.label}:${randomBytes(4).toString('hex')}:`,
      ...(options.presenceTtlMs ? { presenceTtlMs: options.presenceTtlMs } : {}),
    },
    uploads: { dir: join(dir, 'uploads') },
  };
  // Migrated here first, so the two nodes, each slow to start (tsx compiles the server), can start side by side.
  await migrateDatabase(config);
  const nodes = await Promise.all([spawnChatNode(config), spawnChatNode(config)]);
  const nginx = await startNginx([nodes[0]!.port, nodes[1]!.port]);
  const env = contractEnvOn(throughNginx(nginx.chatURL, app.key, app.secret));
  return {
    nodes,
    nginx,
    env,
    directEnv: (node) => contractEnvOn(throughNginx(node.baseURL, app.key, app.secret)),
    async close() {
      await disconnectClients(env);
      await Promise.all(nodes.map((node) => node.stop('SIGKILL')));
      await nginx.stop();
      await drop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function migrateDatabase(config: ChatServerConfigInput): Promise<void> {
  const handle = createDb(parseConfig(config).db);
  try {
    await migrateToLatest(handle.db, handle.kind);
  } finally {
    await handle.close();
  }
}

async function freshDatabase(
  options: ClusterOptions,
  dir: string,
): Promise<{ db: ChatServerConfigInput['db']; drop: () => Promise<void> }> {
  const url =
    options.postgresUrl ??
    (process.env.CHAT_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined);
  if (!url)
    return { db: { kind: 'sqlite', file: join(dir, 'shared.sqlite') }, drop: async () => {} };
  const { schema, drop } = await createPostgresSchema(url);
  return { db: { kind: 'postgres', url, schema, poolSize: 3 }, drop };
}

/** The fixtures' view of a server reached through nginx: a URL and the app's credentials, no node of its own. */
function throughNginx(baseURL: string, apiKey: string, apiSecret: string): TestChatServer {
  const notANode = () => {
    throw new Error('the nginx front is not one node');
  };
  return {
    baseURL,
    apiKey,
    apiSecret,
    routes: [],
    socketCount: notANode,
    runtime: notANode,
    restart: async () => notANode(),
    close: async () => {},
  };
}

/** How many times `connectOnNode` lets nginx place a socket before it gives up. */
const PLACEMENT_ATTEMPTS = 10;

/**
 * Connects `userId` through nginx until its socket lands where the test needs it: on `wanted`, or on any node but
 * `avoid`. Round robin without stickiness decides, so a socket that lands elsewhere is closed and tried again.
 */
export async function connectOnNode(
  cluster: ProcessCluster,
  userId: string,
  place: { wanted?: ChatNodeProcess; avoid?: ChatNodeProcess },
): Promise<{ client: StreamChat; node: ChatNodeProcess }> {
  const counts = () => Promise.all(cluster.nodes.map((node) => node.socketCount()));
  for (let attempt = 0; attempt < PLACEMENT_ATTEMPTS; attempt++) {
    const before = await counts();
    const client = await connectUser(cluster.env, userId);
    const index = (await counts()).findIndex((count, i) => count > before[i]!);
    const node = cluster.nodes[index];
    if (!node) throw new Error('the new socket is on no node');
    if ((place.wanted ?? node) === node && node !== place.avoid) return { client, node };
    await client.disconnectUser();
  }
  throw new Error('nginx never sent a socket to the node wanted');
}
