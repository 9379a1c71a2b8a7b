import { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatServerConfigInput } from '../src/config.ts';
import { parseConfig } from '../src/config.ts';
import { ownDatabase } from './support/own-database.ts';
import { createDb } from '../src/db/create-db.ts';
import { migrateTo } from '../src/db/migrate.ts';
import { startTestChatServer, type TestChatServer } from '../src/testing/harness.ts';
import { contractEnvOn, createUsers, uniqueId, type ContractEnv } from './contract/helpers.ts';

/**
 * Before migration 0026 a soft delete left the history in place and get-or-create brought the channel back empty by
 * other means; since, a soft delete truncates, and a channel deleted with its history kept comes back with it. So the
 * migration marks channels deleted earlier as truncated when they were deleted. The old data is made by the real
 * client, set back to how the code before 0026 left it, and migrated again.
 */
describe(
  'migration 0026: channels deleted before it stay deleted with their history',
  {
    timeout: 40_000,
  },
  () => {
    const cleanups: (() => Promise<void> | void)[] = [];
    let server: TestChatServer;
    let env: ContractEnv;
    let dbConfig: ChatServerConfigInput['db'];

    beforeAll(async () => {
      dbConfig = await ownDatabase('chat-truncate-migration-', cleanups);
      server = await startTestChatServer({ config: { db: dbConfig } as never });
      env = contractEnvOn(server);
    }, 30_000);

    afterAll(async () => {
      await server.close();
      for (const cleanup of cleanups.reverse()) await cleanup();
    }, 30_000);

    it('marks a channel deleted before the migration truncated at its deletion, and leaves live channels alone', async () => {
      const ownerId = uniqueId('chu');
      await createUsers(env, [ownerId]);
      const [goneId, liveId] = [uniqueId('da-xoa'), uniqueId('con-song')];
      for (const id of [goneId, liveId]) {
        const channel = env.admin.channel('messaging', id, {
          created_by_id: ownerId,
          members: [ownerId],
        });
        await channel.create();
        await channel.sendMessage({ text: `Lời cũ ở ${id}`, user_id: ownerId });
      }
      await env.admin.channel('messaging', goneId).delete();

      const handle = createDb(parseConfig({ apps: [{ key: 'k', secret: 's' }], db: dbConfig }).db);
      try {
        // Back to the schema before 0026, with the deleted channel as the code of that time left it: not truncated.
        await migrateTo(handle.db, handle.kind, '0025-channel-config-overrides');
        await handle.db
          .updateTable('channels')
          .set({ truncated_at: null })
          .where('id', 'in', [goneId, liveId])
          .execute();
        await migrateTo(handle.db, handle.kind);
        const rows = await handle.db
          .selectFrom('channels')
          .select(['id', 'deleted_at', 'truncated_at'])
          .where('id', 'in', [goneId, liveId])
          .execute();
        const byId = new Map(rows.map((row) => [row.id, row]));
        expect(byId.get(goneId)?.deleted_at).toEqual(expect.any(String));
        expect(byId.get(goneId)?.truncated_at).toBe(byId.get(goneId)?.deleted_at);
        expect(byId.get(liveId)?.truncated_at).toBeNull();
      } finally {
        await handle.close();
      }
      await server.restart();

      const admin = new StreamChat(server.apiKey, server.apiSecret, { baseURL: server.baseURL });
      const again = admin.channel('messaging', goneId, { created_by_id: ownerId });
      const state = await again.query({ messages: { limit: 10 } });
      expect(state.messages).toEqual([]);
      const live = await admin.channel('messaging', liveId).query({ messages: { limit: 10 } });
      expect(live.messages.map((message) => message.text)).toEqual([`Lời cũ ở ${liveId}`]);
    });
  },
);
