import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { restartablePort } from './ports.ts';

/*
 * A private PostgreSQL cluster for tests that stop the database: never the shared one other suites use
 * (TEST_DATABASE_URL). Debian's binaries (PGBIN, or the newest /usr/lib/postgresql/<n>/bin, as .ci/run picks them);
 * initdb and pg_ctl refuse to run as root, so as root they run as the `postgres` user through runuser, as in
 * .ci/run.
 */

function findPgBin(): string | undefined {
  const fromEnv = process.env.PGBIN;
  if (fromEnv) return existsSync(join(fromEnv, 'initdb')) ? fromEnv : undefined;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((version) => existsSync(join(root, version, 'bin', 'initdb')))
    .sort((a, b) => Number(a) - Number(b));
  return versions.length > 0 ? join(root, versions.at(-1)!, 'bin') : undefined;
}

export const PG_BIN = findPgBin();

const asRoot = process.getuid?.() === 0;

const run = promisify(execFile);

/** Runs a PostgreSQL binary, as `postgres` when we are root; without blocking the test's own clients. */
async function pgRun(binary: string, args: string[]): Promise<void> {
  const path = join(PG_BIN!, binary);
  const [command, argv] = asRoot
    ? ['runuser', ['-u', 'postgres', '--', path, ...args]]
    : [path, args];
  await run(command, argv, { timeout: 60_000 });
}

export interface PostgresProcess {
  /** postgres://postgres@127.0.0.1:<port>/postgres */
  url: string;
  /** pg_ctl stop -m fast: every session is ended (57P01) and new connections are refused until `start`. */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and deletes its files. */
  remove(): Promise<void>;
}

/** initdb and start a throwaway cluster on a free port (trust auth, no fsync: nothing here must survive). */
export async function startPostgresProcess(): Promise<PostgresProcess> {
  if (!PG_BIN) throw new Error('PostgreSQL binaries not found (set PGBIN)');
  const dir = mkdtempSync(join(tmpdir(), 'chat-pg-'));
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, 'data');
  const port = await restartablePort();
  await pgRun('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`;
  const start = () =>
    pgRun('pg_ctl', ['-D', data, '-l', join(dir, 'pg.log'), '-w', '-o', options, 'start']);
  const stop = () => pgRun('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
  await start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop,
    start,
    async remove() {
      await stop().catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
