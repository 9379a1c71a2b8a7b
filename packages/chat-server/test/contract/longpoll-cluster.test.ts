import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatServerConfig, DeepPartial } from '../../src/config.ts';
import {
  createPostgresSchema,
  startTestChatServer,
  type TestChatServer,
} from '../../src/testing/harness.ts';
import {
  connectUser,
  contractEnvOn,
  createUsers,
  disconnectClients,
  newClient,
  sendText,
  uniqueId,
  waitForEvent,
  watchChannel,
  type ContractEnv,
} from './helpers.ts';

const redisUrl = process.env.REDIS_URL;

/*
 * A long-poll connection is a hub connection like a websocket one, so the cluster's pub/sub reaches it as well. Both
 * nodes share one database (a SQLite file in WAL mode, or one PostgreSQL schema) and one Redis key prefix.
 */
describe.skipIf(!redisUrl)('the long-poll fallback on a two-node cluster', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-lp-cluster-'));
  const app = {
    key: `k-${randomBytes(4).toString('hex')}`,
    secret: randomBytes(16).toString('hex'),
  };
  let nodes: TestChatServer[] = [];
  let envs: ContractEnv[] = [];
  let dropSchema = async () => {};

  beforeAll(async () => {
    const pgUrl =
      process.env.CHAT_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;
    let db: DeepPartial<ChatServerConfig['db']> = {
      kind: 'sqlite',
      file: join(dir, 'shared.sqlite'),
    };
    if (pgUrl) {
      const { schema, drop } = await createPostgresSchema(pgUrl);
      db = { kind: 'postgres', url: pgUrl, schema, poolSize: 3 };
      dropSchema = drop;
    }
    const keyPrefix = `lp-cluster:${randomBytes(4).toString('hex')}:`;
    const config = {
      apps: [app],
      db,
      pubsub: { kind: 'redis' as const, url: redisUrl!, keyPrefix },
    };
    const first = await startTestChatServer({ config });
    nodes = [first, await startTestChatServer({ config })];
    envs = nodes.map(contractEnvOn);
  }, 30_000);
  afterAll(async () => {
    for (const env of envs) await disconnectClients(env);
    for (const node of nodes) await node.close();
    await dropSchema();
    rmSync(dir, { recursive: true, force: true });
  }, 30_000);

  it('delivers a message sent through one node to a long-poll user connected to the other', async () => {
    const [a, b] = envs as [ContractEnv, ContractEnv];
    const namId = uniqueId('lp-nam');
    const bacId = uniqueId('lp-bac');
    await createUsers(a, [namId, bacId]);
    const nam = newClient(a, { enableWSFallback: true });
    // Nothing listens on port 9: the websocket fails and the client falls back to long-polling node A.
    nam.wsBaseURL = 'ws://127.0.0.1:9';
    nam.defaultWSTimeoutWithFallback = 300;
    await nam.connectUser({ id: namId }, a.admin.createToken(namId));
    expect(nam.wsFallback?.isHealthy()).toBe(true);
    const bac = await connectUser(b, bacId);
    const channelId = uniqueId('lp-hai-nut');
    const bacChannel = await watchChannel(bac, 'messaging', channelId, { members: [namId, bacId] });
    await watchChannel(nam, 'messaging', channelId);

    const arrived = waitForEvent(nam, 'message.new', (event) => event.user?.id === bacId);
    const sent = await sendText(bacChannel, 'Gửi từ nút B');
    expect((await arrived).message?.id).toBe(sent.id);
  });
});
