import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatServerConfig, DeepPartial } from '../src/config.ts';
import {
  createPostgresSchema,
  startTestChatServer,
  type TestChatServer,
} from '../src/testing/harness.ts';
import {
  contractEnvOn,
  disconnectClients,
  useForSuite,
  type ContractEnv,
} from './contract/helpers.ts';

/** Two chat nodes of one app, sharing a database and Redis pub/sub, with the contract fixtures on each. */
export interface TwoNodes {
  nodes: TestChatServer[];
  /** The contract fixtures on each node (one app, so tokens minted by either work on both). */
  envs: ContractEnv[];
  /** Disconnects every client, closes the nodes still running, drops the database. */
  close(): Promise<void>;
}

/**
 * Starts two nodes on one database (a SQLite file, WAL allowing several connections, or a fresh PostgreSQL schema
 * in the PostgreSQL project) and one Redis, isolated from other tests by a random key prefix named after `label`.
 */
export async function startTwoNodes(
  redisUrl: string,
  label: string,
  extra: DeepPartial<ChatServerConfig> = {},
): Promise<TwoNodes> {
  const dir = mkdtempSync(join(tmpdir(), `chat-${label}-`));
  const pgUrl =
    process.env.CHAT_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
  let db: DeepPartial<ChatServerConfig['db']> = {
    kind: 'sqlite',
    file: join(dir, 'shared.sqlite'),
  };
  let dropSchema = async () => {};
  if (pgUrl) {
    const { schema, drop } = await createPostgresSchema(pgUrl);
    db = { kind: 'postgres', url: pgUrl, schema, poolSize: 3 };
    dropSchema = drop;
  }
  const config = {
    ...extra,
    apps: [{ key: `k-${randomBytes(4).toString('hex')}`, secret: randomBytes(16).toString('hex') }],
    pubsub: {
      kind: 'redis' as const,
      url: redisUrl,
      keyPrefix: `${label}:${randomBytes(4).toString('hex')}:`,
    },
    db,
  };
  const first = await startTestChatServer({ config });
  const nodes = [first, await startTestChatServer({ config })];
  const envs = nodes.map(contractEnvOn);
  return {
    nodes,
    envs,
    async close() {
      for (const env of envs) await disconnectClients(env);
      for (const node of nodes) await node.close();
      await dropSchema();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * `startTwoNodes` for the tests of the enclosing describe block: started before them, closed after them. Call it
 * inside the block; the getter returns the running nodes.
 */
export function useTwoNodes(
  redisUrl: string,
  label: string,
  extra?: DeepPartial<ChatServerConfig>,
): () => TwoNodes {
  return useForSuite(
    'The two nodes are not running: call useTwoNodes()',
    () => startTwoNodes(redisUrl, label, extra),
    (cluster) => cluster.close(),
  );
}
