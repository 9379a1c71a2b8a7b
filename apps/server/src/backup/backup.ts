import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CHAT_DATABASE_FILE } from '../chat/embedded-chat.ts';
import type { Config } from '../config.ts';
import { DATABASE_FILE } from '../db/open-database.ts';
import { SECRETS_FILE } from '../auth/secrets.ts';

/*
 * Online backups of the SQLite databases, taken while the server runs and writes. SQLite's backup API copies pages;
 * a copy spread over several steps restarts whenever another connection writes in between, which under steady
 * writes could go on for ever. So after the first step (which only counts the pages) every step copies the whole
 * database, which holds a read transaction for its duration: the copy is the database as of one commit, and in WAL
 * mode writers are not held up. Asking for "the pages that were left" is not enough: a restart begins again at the
 * first page, and a database that grew since the count never finishes while writes go on.
 * A backup is written to `<stamp>.partial` and renamed when complete, so a crash never leaves a half backup that
 * looks whole.
 */

export interface BackupSource {
  /** The file name inside the backup directory. */
  name: string;
  path: string;
  kind: 'sqlite' | 'file';
}

export interface BackupResult {
  dir: string;
  files: string[];
  bytes: number;
}

const PARTIAL = '.partial';
// Sortable and safe in file names on every system: 2026-11-25T23-50-01-123Z.
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z$/;

/** What a backup of this configuration holds: the product database, the chat database when it is SQLite, the secrets. */
export function backupSources(config: Config): BackupSource[] {
  const sources: BackupSource[] = [
    { name: DATABASE_FILE, path: join(config.dataDir, DATABASE_FILE), kind: 'sqlite' },
  ];
  if (config.chat.mode === 'embedded' && config.chat.databaseUrl === undefined)
    sources.push({
      name: CHAT_DATABASE_FILE,
      path: join(config.dataDir, CHAT_DATABASE_FILE),
      kind: 'sqlite',
    });
  // Without the secrets a restored chat database is useless: they sign every token and session.
  sources.push({ name: SECRETS_FILE, path: join(config.dataDir, SECRETS_FILE), kind: 'file' });
  return sources.filter((source) => existsSync(source.path));
}

/** The largest step better-sqlite3 accepts: every page, from the first, in one step. */
const ALL_PAGES = 0x7fffffff;

async function copyDatabase(from: string, to: string): Promise<void> {
  const source = new BetterSqlite3(from, { fileMustExist: true });
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(to, { progress: () => ALL_PAGES });
  } finally {
    source.close();
  }
  const copy = new BetterSqlite3(to, { fileMustExist: true });
  try {
    const check = copy.pragma('quick_check', { simple: true });
    if (check !== 'ok') throw new Error(`the copy of ${from} failed its check: ${String(check)}`);
  } finally {
    copy.close();
  }
}

function stampOf(now: Date): string {
  return now.toISOString().replace(/[:.]/g, '-');
}

/** Takes one backup of `sources` into `root`/<stamp>, then keeps only the newest `retain` backups. */
export async function takeBackup(
  sources: readonly BackupSource[],
  options: { root: string; retain: number; now?: Date },
): Promise<BackupResult> {
  mkdirSync(options.root, { recursive: true, mode: 0o700 });
  const final = join(options.root, stampOf(options.now ?? new Date()));
  const partial = final + PARTIAL;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { mode: 0o700 });
  try {
    for (const source of sources) {
      const target = join(partial, source.name);
      if (source.kind === 'sqlite') await copyDatabase(source.path, target);
      else copyFileSync(source.path, target);
      chmodSync(target, 0o600);
    }
    renameSync(partial, final);
  } catch (error) {
    rmSync(partial, { recursive: true, force: true });
    throw error;
  }
  pruneBackups(options.root, options.retain);
  const files = sources.map((source) => source.name);
  const bytes = files.reduce((sum, name) => sum + statSync(join(final, name)).size, 0);
  return { dir: final, files, bytes };
}

/** The complete backups in `root`, oldest first. */
export function listBackups(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => STAMP.test(name))
    .sort()
    .map((name) => join(root, name));
}

// A partial backup this old was left by a crash; a younger one may be another process's backup in progress.
const STALE_PARTIAL_MS = 3_600_000;

/** Deletes all but the newest `retain` backups, and partial ones left by a crash. */
export function pruneBackups(root: string, retain: number, now = Date.now()): void {
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (!name.endsWith(PARTIAL) || !STAMP.test(name.slice(0, -PARTIAL.length))) continue;
    if (now - statSync(path).mtimeMs > STALE_PARTIAL_MS)
      rmSync(path, { recursive: true, force: true });
  }
  const complete = listBackups(root);
  for (const dir of complete.slice(0, Math.max(0, complete.length - retain)))
    rmSync(dir, { recursive: true, force: true });
}
