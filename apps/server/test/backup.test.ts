import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { backupSources, listBackups, pruneBackups, takeBackup } from '../src/backup/backup.ts';
import { scheduleBackups } from '../src/backup/schedule.ts';
import { chatAdmin, listeningApp, storedChatCredentials } from './chat-harness.ts';
import { signedUpUser, signIn, tempDir, testConfig } from './harness.ts';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

describe('online backups of the SQLite databases', { timeout: 60_000 }, () => {
  it('holds every message acknowledged before it was taken under write load, and restores into a working server', async () => {
    const dir = tempDir();
    const config = testConfig({}, dir);
    const running = await listeningApp({}, config);
    const { apiKey, apiSecret } = storedChatCredentials(config.dataDir);
    const admin = chatAdmin(apiKey, apiSecret, running.chatURL);
    const { credentials } = await signedUpUser(running.app);
    await admin.upsertUser({ id: 'nguoi-ghi', name: 'Người Ghi' });
    const channel = admin.channel('messaging', 'nhat-ky', { created_by_id: 'nguoi-ghi' });
    await channel.create();

    // Four writers send without pause until told to stop; each id is recorded once its send was answered. Each stops
    // on its own after SENDS_PER_WRITER: server-side calls are limited to 10,000 per endpoint and window, and a quiet
    // machine reached that while a backup was taken (every send after it was refused with 429).
    const SENDS_PER_WRITER = 2000;
    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (n: number) => {
      for (let i = 0; writing && i < SENDS_PER_WRITER; i++) {
        const { message } = await channel.sendMessage({
          text: `Nhật ký ${n}-${i}`,
          user_id: 'nguoi-ghi',
        });
        acknowledged.push(message.id);
      }
    };
    const writers = [0, 1, 2, 3].map(writer);
    while (acknowledged.length < 200) await new Promise((resolve) => setTimeout(resolve, 10));

    const before = [...acknowledged];
    const result = await takeBackup(backupSources(config), {
      root: join(dir, 'backups'),
      retain: 3,
    });
    writing = false;
    await Promise.all(writers);
    await running.close();
    expect(result.files.sort()).toEqual(['chat.db', 'daohuu.db', 'secrets.json']);

    // Restoring is copying the backup's files into an empty data directory.
    const restoredDir = tempDir();
    const restoredConfig = testConfig({}, restoredDir);
    mkdirSync(restoredConfig.dataDir, { recursive: true });
    cpSync(result.dir, restoredConfig.dataDir, { recursive: true });
    const restored = await listeningApp({}, restoredConfig);
    try {
      const restoredAdmin = chatAdmin(apiKey, apiSecret, restored.chatURL);
      const found = new Set<string>();
      const page = await restoredAdmin.search(
        { cid: 'messaging:nhat-ky' },
        { text: { $autocomplete: 'nhat' } },
        { limit: 100 },
      );
      expect(page.results.length).toBeGreaterThan(0);
      for (const id of before) {
        const { message } = await restoredAdmin.getMessage(id);
        found.add(message.id);
      }
      expect(found.size).toBe(before.length);
      // The product database came back too: the cultivator signs in with the password they had.
      const signedIn = await signIn(restored.app, {
        email: credentials.email,
        password: credentials.password,
      });
      expect(signedIn.statusCode).toBe(200);
    } finally {
      await restored.close();
    }
  });

  it('keeps only the newest backups and clears partial ones a crash left, but not one in progress', async () => {
    const dir = tempDir();
    const database = join(dir, 'one.db');
    const db = new BetterSqlite3(database);
    db.exec('create table t (x integer); insert into t values (1);');
    db.close();
    const root = join(dir, 'backups');
    const sources = [{ name: 'one.db', path: database, kind: 'sqlite' as const }];
    for (const day of [1, 2, 3, 4])
      await takeBackup(sources, {
        root,
        retain: 2,
        now: new Date(`2026-11-0${day}T08:00:00.000Z`),
      });
    expect(listBackups(root).map((path) => path.slice(root.length + 1))).toEqual([
      '2026-11-03T08-00-00-000Z',
      '2026-11-04T08-00-00-000Z',
    ]);

    const crashed = join(root, '2026-11-04T09-00-00-000Z.partial');
    const inProgress = join(root, '2026-11-04T10-00-00-000Z.partial');
    for (const partial of [crashed, inProgress]) mkdirSync(partial);
    const twoHoursAgo = new Date(Date.now() - 7_200_000);
    utimesSync(crashed, twoHoursAgo, twoHoursAgo);
    pruneBackups(root, 2);
    expect(existsSync(crashed)).toBe(false);
    expect(existsSync(inProgress)).toBe(true);
    expect(listBackups(root)).toHaveLength(2);
  });

  it('finishes while another connection commits between every step, however long that goes on', async () => {
    const dir = tempDir();
    const database = join(dir, 'busy.db');
    const setup = new BetterSqlite3(database);
    setup.pragma('journal_mode = WAL');
    setup.exec('create table t (x text)');
    const insert = setup.prepare('insert into t values (?)');
    for (let i = 0; i < 2000; i++) insert.run('đạo hữu '.repeat(20));
    // A writer on its own connection commits at every turn of the event loop, as a busy server does between the
    // backup's steps; each commit grows the database by a few pages, so SQLite restarts the backup at its next step.
    let commits = 0;
    let writing = true;
    const writeMore = () => {
      if (!writing || commits >= 1000) return;
      insert.run('tu vi '.repeat(2000));
      commits += 1;
      setImmediate(writeMore);
    };
    setImmediate(writeMore);
    const result = await takeBackup([{ name: 'busy.db', path: database, kind: 'sqlite' }], {
      root: join(dir, 'backups'),
      retain: 1,
    });
    writing = false;
    setup.close();
    // Copying only the pages left after each restart, it ran until the writer gave up (1,000 commits); now a few steps.
    expect(commits).toBeLessThan(100);
    const copy = new BetterSqlite3(join(result.dir, 'busy.db'), { readonly: true });
    try {
      expect(
        (copy.prepare('select count(*) as n from t').get() as { n: number }).n,
      ).toBeGreaterThanOrEqual(2000);
    } finally {
      copy.close();
    }
  });

  it('refuses to keep a copy that fails SQLite’s check, leaving no backup behind', async () => {
    const dir = tempDir();
    const notADatabase = join(dir, 'broken.db');
    writeFileSync(notADatabase, 'this is not a database file, only text '.repeat(200));
    const root = join(dir, 'backups');
    await expect(
      takeBackup([{ name: 'broken.db', path: notADatabase, kind: 'sqlite' }], { root, retain: 2 }),
    ).rejects.toThrow();
    expect(readdirSync(root)).toEqual([]);
  });

  it('the server’s schedule runs the backup command in a child process and logs where it wrote', async () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    const db = new BetterSqlite3(join(dataDir, 'daohuu.db'));
    db.exec('create table t (x integer)');
    db.close();
    const previous = { DATA_DIR: process.env.DATA_DIR, BACKUP_DIR: process.env.BACKUP_DIR };
    // The child reads the same environment as the server.
    process.env.DATA_DIR = dataDir;
    process.env.BACKUP_DIR = join(dir, 'kept');
    const logged: string[] = [];
    const log = {
      info: (line: string) => logged.push(line),
      error: (_: unknown, line: string) => logged.push(line),
    };
    const config = {
      ...testConfig({ DATA_DIR: dataDir }),
      backup: { dir: join(dir, 'kept'), intervalMs: 100, retain: 2 },
    };
    const stop = scheduleBackups(config, log as unknown as Parameters<typeof scheduleBackups>[1]);
    try {
      const deadline = Date.now() + 45_000;
      while (logged.length === 0 && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      stop();
      for (const [key, value] of Object.entries(previous))
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
    }
    expect(logged[0]).toContain(`Backup written to ${join(dir, 'kept')}`);
    expect(listBackups(join(dir, 'kept')).length).toBeGreaterThanOrEqual(1);
  });

  it('`npm run backup` backs up the configured data directory and says where; with no database it fails clearly', () => {
    const dir = tempDir();
    const dataDir = join(dir, 'data');
    mkdirSync(dataDir);
    const run = () =>
      spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/backup/cli.ts'], {
        cwd: ROOT,
        env: { ...process.env, DATA_DIR: dataDir, BACKUP_DIR: join(dir, 'kept') },
        encoding: 'utf8',
      });
    const empty = run();
    expect(empty.status).toBe(1);
    expect(empty.stderr).toContain(`Nothing to back up: no database in ${dataDir}.`);

    const db = new BetterSqlite3(join(dataDir, 'daohuu.db'));
    db.exec('create table t (x integer)');
    db.close();
    const done = run();
    expect(done.status).toBe(0);
    const [written] = listBackups(join(dir, 'kept'));
    expect(done.stdout).toContain(`Backup written to ${written} (daohuu.db;`);
  });
});
