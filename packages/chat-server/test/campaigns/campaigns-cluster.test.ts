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
import { contractEnvOn, uniqueId, type ContractEnv } from '../contract/helpers.ts';
import { campaignMessageCounts, cultivators, waitForCampaign } from './support.ts';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('campaigns on two nodes sharing a database and Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-campaigns-cluster-'));
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
    const keyPrefix = `campaigns:${randomBytes(4).toString('hex')}:`;
    const config = {
      apps: [app],
      pubsub: { kind: 'redis' as const, url: redisUrl, keyPrefix },
      db,
    };
    const first = await startTestChatServer({ config });
    nodes = [first, await startTestChatServer({ config })];
    envs = nodes.map(contractEnvOn);
  }, 60_000);
  afterAll(async () => {
    for (const node of nodes) await node.close().catch(() => undefined);
    await dropSchema();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('reaches every target exactly once while both nodes look for work and the starting node goes away midway', async () => {
    const [a, b] = envs as [ContractEnv, ContractEnv];
    const { sender, targets } = await cultivators(a, 'cum', 150);
    const id = uniqueId('cd');
    await a.admin.createCampaign({
      id,
      sender_id: sender,
      user_ids: targets,
      message_template: { text: 'Hai nút {{ receiver.name }}' },
      create_channels: true,
    });
    // Started through the second node, so both nodes know of it; the first stops while it runs.
    await b.admin.startCampaign(id);
    await waitForCampaign(a.admin, id, (c) => c.stats.stats_messages_sent > 0, 'a first send');
    await nodes[1]!.close();

    const done = await waitForCampaign(
      a.admin,
      id,
      (c) => c.status === 'completed',
      'the other node completes it',
      120_000,
    );
    expect(done.stats).toMatchObject({ stats_targets: 150, stats_messages_sent: 150 });
    const counts = await campaignMessageCounts(a, sender, id);
    expect(counts.size).toBe(150);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
  }, 180_000);
});
