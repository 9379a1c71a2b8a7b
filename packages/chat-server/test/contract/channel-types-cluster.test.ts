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
  channelWithMembers,
  contractEnvOn,
  disconnectClients,
  eventually,
  expectStreamError,
  sendText,
  uniqueId,
  type ContractEnv,
} from './helpers.ts';

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('channel types on two nodes sharing a database and Redis', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-types-cluster-'));
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
    const keyPrefix = `types:${randomBytes(4).toString('hex')}:`;
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
    for (const env of envs) await disconnectClients(env);
    for (const node of nodes) await node.close();
    await dropSchema();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('applies a grants change made through one node to a member connected to the other', async () => {
    const [a, b] = envs as [ContractEnv, ContractEnv];
    const type = uniqueId('cum').toLowerCase();
    await a.admin.createChannelType({ name: type });
    await eventually(
      async () => (await b.admin.listChannelTypes()).channel_types[type] !== undefined,
      'the second node knows the new type',
    );
    const { members } = await channelWithMembers(b, 'cum', { type, users: ['a', 'b'] });
    // The creator moderates the channel; the plain member is the one the change is about.
    const member = members[1]!;
    await sendText(member.channel, 'Trước khi đổi');

    await a.admin.updateChannelType(type, {
      grants: { channel_member: ['read-channel', 'watch-channel'] },
    });

    await eventually(
      async () =>
        !(await b.admin.getChannelType(type)).grants.channel_member?.includes('send-message'),
      'the second node sees the new grants',
    );
    await expectStreamError(sendText(member.channel, 'Sau khi đổi'), { code: 17 });
    const [channel] = await member.client.queryChannels({ cid: member.channel.cid });
    expect(channel?.data?.own_capabilities).not.toContain('send-message');
  });
});
