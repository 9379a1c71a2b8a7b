import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../../config.ts';
import { createDb, type DbHandle } from '../../../db/create-db.ts';
import { migrateToLatest } from '../../../db/migrate.ts';
import { createTasksRepo } from './repo.ts';

describe('the tasks table', () => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-tasks-'));
  let handle: DbHandle | undefined;
  afterAll(async () => {
    await handle?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets exactly one claimant move a waiting task to running, so no task runs twice', async () => {
    const { db: config } = parseConfig({
      apps: [{ key: 'k', secret: 's' }],
      db: { kind: 'sqlite', file: join(dir, 'chat.sqlite') },
    });
    handle = createDb(config);
    await migrateToLatest(handle.db, handle.kind);
    const repo = createTasksRepo(handle.db);
    const now = new Date().toISOString();
    await repo.insert({
      app_id: 'app',
      id: 'nhiem-vu',
      kind: 'delete-channels',
      status: 'waiting',
      params: '{}',
      result: null,
      error: null,
      created_at: now,
      updated_at: now,
    });

    const claims = await Promise.all([
      repo.claim('app', 'nhiem-vu', now),
      repo.claim('app', 'nhiem-vu', now),
      repo.claim('app', 'nhiem-vu', now),
    ]);

    expect(claims.filter(Boolean)).toHaveLength(1);
    expect((await repo.get('app', 'nhiem-vu'))?.status).toBe('running');
    expect(await repo.claim('other-app', 'nhiem-vu', now)).toBe(false);
  });
});
