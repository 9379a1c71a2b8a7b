import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { parseConfig, type ChatServerConfig } from '../../src/config.ts';
import { createDb, type DbHandle } from '../../src/db/create-db.ts';
import { createPostgresSchema } from '../../src/testing/postgres-schema.ts';
import {
  connectUrl,
  connectUser,
  createUsers,
  EVENT_TIMEOUT_MS,
  sendText,
  startContractEnv,
  stopContractEnv,
  twoMembers,
  uniqueId,
  type ContractEnv,
} from './helpers.ts';

/** A database this file can reach beside the server, to make a ban lapse without waiting for it. */
async function sharedDatabase(): Promise<{
  config: ChatServerConfig['db'];
  drop: () => Promise<void>;
}> {
  const url = process.env.TEST_DATABASE_URL;
  const parsed = (db: object) => parseConfig({ apps: [{ key: 'k', secret: 's' }], db }).db;
  if (process.env.CHAT_TEST_DIALECT === 'postgres' && url) {
    const { schema, drop } = await createPostgresSchema(url, 'bans_test');
    return { config: parsed({ kind: 'postgres', url, schema, poolSize: 2 }), drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'bans-test-'));
  return {
    config: parsed({ kind: 'sqlite', file: join(dir, 'chat.sqlite') }),
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** The first frame a bare websocket gets when connecting `userId` as if from `address` (behind one trusted proxy). */
function firstFrameFrom(env: ContractEnv, userId: string, address: string) {
  const socket = new WebSocket(connectUrl(env, userId, env.admin.createToken(userId)), {
    headers: { 'x-forwarded-for': address },
  });
  return new Promise<Record<string, unknown>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no first frame')), EVENT_TIMEOUT_MS);
    socket.once('message', (data) => {
      clearTimeout(timer);
      resolve(JSON.parse(data.toString()) as Record<string, unknown>);
      socket.close();
    });
    socket.once('error', reject);
  });
}

describe('ban expiry and IP bans', { timeout: 30_000 }, () => {
  let env: ContractEnv;
  let database: Awaited<ReturnType<typeof sharedDatabase>>;
  let side: DbHandle;

  beforeAll(async () => {
    database = await sharedDatabase();
    env = await startContractEnv({
      config: { db: database.config, rateLimits: { trustProxy: 1 } },
    });
    side = createDb(database.config);
  }, 30_000);

  afterAll(async () => {
    await side?.close();
    if (env) await stopContractEnv(env);
    await database?.drop();
  }, 30_000);

  /** Moves a user's bans into the past, as if their timeout had run out. */
  async function lapse(userId: string) {
    const past = '2001-01-01T00:00:00.000000Z';
    await side.db
      .updateTable('users')
      .set({ ban_expires: past })
      .where('id', '=', userId)
      .execute();
    await side.db
      .updateTable('members')
      .set({ ban_expires: past })
      .where('user_id', '=', userId)
      .execute();
    await side.db
      .withTables<{ bans: { user_id: string; expires: string | null } }>()
      .updateTable('bans')
      .set({ expires: past })
      .where('user_id', '=', userId)
      .execute();
  }

  it('lets timed bans lapse by themselves: the user writes again and no longer shows as banned', async () => {
    const { aliceChannel, bobChannel, bobId } = await twoMembers(env, 'het-han');
    const modId = uniqueId('truong-lao');
    await env.admin.upsertUser({ id: modId, role: 'moderator' });
    await aliceChannel.banUser(bobId, { timeout: 1 });
    await env.admin.banUser(bobId, { timeout: 1, banned_by_id: modId });
    // Checked from the server side: bob's own calls would cache his standing for a few seconds, and the lapse
    // below is a row update no node hears of (a real expiry needs no notice: the cached expiry passes too).
    expect((await env.admin.queryUsers({ id: bobId, banned: true })).users).toHaveLength(1);
    expect((await aliceChannel.queryMembers({ banned: true })).members).toHaveLength(1);

    await lapse(bobId);
    const again = await connectUser(env, bobId);
    expect(again.user?.banned).toBe(false);
    expect((again.user as { ban_expires?: string }).ban_expires).toBeUndefined();
    await sendText(again.channel('messaging', bobChannel.id), 'Hết hạn cấm rồi');
    const { members } = await aliceChannel.queryMembers({ id: bobId });
    expect(members[0]).toMatchObject({ banned: false });
    expect((await aliceChannel.queryMembers({ banned: true })).members).toEqual([]);
    expect((await env.admin.queryUsers({ id: bobId, banned: true })).users).toEqual([]);
    const live = await env.admin.queryBannedUsers({ user_id: bobId }, [], {
      exclude_expired_bans: true,
    });
    expect(live.bans).toEqual([]);
    expect((await env.admin.queryBannedUsers({ user_id: bobId })).bans).toHaveLength(2);
  });

  it('refuses connections from the address of an IP-banned user until the ban is lifted', async () => {
    const badId = uniqueId('ke-xau');
    const neighbourId = uniqueId('hang-xom');
    const elsewhereId = uniqueId('noi-khac');
    const modId = uniqueId('ho-phap');
    await createUsers(env, [neighbourId, elsewhereId]);
    await env.admin.upsertUser({ id: modId, role: 'moderator' });
    expect(await firstFrameFrom(env, badId, '203.0.113.7')).toMatchObject({ type: 'health.check' });

    await env.admin.banUser(badId, { ip_ban: true, banned_by_id: modId });
    const refused = await firstFrameFrom(env, neighbourId, '203.0.113.7');
    expect(refused).toMatchObject({ error: { code: 17, StatusCode: 403 } });
    expect(await firstFrameFrom(env, elsewhereId, '203.0.113.8')).toMatchObject({
      type: 'health.check',
    });
    const { bans } = await env.admin.queryBannedUsers({ user_id: badId });
    expect(bans?.[0]).toMatchObject({ ip_ban: true });

    await env.admin.unbanUser(badId);
    expect(await firstFrameFrom(env, neighbourId, '203.0.113.7')).toMatchObject({
      type: 'health.check',
    });
  });
});
