import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Redis } from 'ioredis';
import { createPostgresSchema } from '../../src/testing/harness.ts';
import { restartablePort } from '../support/ports.ts';

/*
 * Real processes for the resilience attacks: the chat server's own CLI as a child process, and a private PostgreSQL
 * or Redis that a test may stop and start without touching the services other suites share.
 */

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const cliFile = join(repoRoot, 'packages/chat-server/bin/daohuu-chat.mjs');

/** Every wait on a child process or service is bounded by this: starting the CLI alone takes 10+ s on a loaded 2-core machine. */
export const PROCESS_TIMEOUT_MS = 60_000;

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8', timeout: PROCESS_TIMEOUT_MS });
  if (result.status !== 0)
    throw new Error(`${command} ${args.join(' ')} failed: ${result.stderr}${result.stdout}`);
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + PROCESS_TIMEOUT_MS;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Exit code of a child, or a rejection once PROCESS_TIMEOUT_MS (or `timeoutMs`) passed. */
export function exitOf(
  child: ChildProcess,
  timeoutMs = PROCESS_TIMEOUT_MS,
): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`process ${child.pid} still running`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
}

// ---------------------------------------------------------------------------------------------------------------
// A private PostgreSQL cluster (initdb in a temp directory, run as the postgres user, as .ci/run does).

export interface PrivatePostgres {
  url: string;
  stop(): void;
  start(): void;
  destroy(): void;
}

function postgresBin(): string | undefined {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return undefined;
  const versions = readdirSync(base).sort((a, b) => Number(a) - Number(b));
  const latest = versions.at(-1);
  return latest ? join(base, latest, 'bin') : undefined;
}

export const canRunPrivatePostgres = (): boolean =>
  process.getuid?.() === 0 && postgresBin() !== undefined;

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL binaries are not installed');
  const dir = mkdtempSync(join(tmpdir(), 'chat-private-pg-'));
  const ids = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
  const gids = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
  chownSync(dir, Number(ids.stdout.trim()), Number(gids.stdout.trim()));
  const data = join(dir, 'data');
  const port = await restartablePort();
  const asPostgres = (tool: string, args: string[]) =>
    run('runuser', ['-u', 'postgres', '--', join(bin, tool), ...args]);
  asPostgres('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-c listen_addresses=127.0.0.1 -p ${port} -k ${dir} -c fsync=off`;
  const start = () =>
    asPostgres('pg_ctl', ['-D', data, '-l', join(dir, 'pg.log'), '-w', '-o', options, 'start']);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    // Fast shutdown: PostgreSQL ends every session with FATAL 57P01, as during a real restart.
    stop: () => asPostgres('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']),
    start,
    destroy() {
      spawnSync('runuser', [
        '-u',
        'postgres',
        '--',
        join(bin, 'pg_ctl'),
        '-D',
        data,
        '-m',
        'immediate',
        '-w',
        'stop',
      ]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A fresh schema in `url` for one child server (search_path and application_name ride on the URL). */
export async function createSchema(
  url: string,
): Promise<{ schema: string; applicationName: string; serverUrl: string; drop(): Promise<void> }> {
  const { schema, drop } = await createPostgresSchema(url);
  const applicationName = `chat-${schema}`;
  const serverUrl = new URL(url);
  serverUrl.searchParams.set('options', `-c search_path=${schema}`);
  serverUrl.searchParams.set('application_name', applicationName);
  return { schema, applicationName, serverUrl: serverUrl.toString(), drop };
}

/** Terminates every backend of one application (a node's pool), as a database restart or failover would. */
export async function terminateBackends(url: string, applicationName: string): Promise<number> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const result = await admin.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
      [applicationName],
    );
    for (const { pid } of result.rows) await admin.query('select pg_terminate_backend($1)', [pid]);
    await until(async () => {
      const left = await admin.query('select 1 from pg_stat_activity where application_name = $1', [
        applicationName,
      ]);
      return left.rowCount === 0;
    }, `the backends of ${applicationName} to end`);
    return result.rows.length;
  } finally {
    await admin.end();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// A private Redis (its own port, no persistence), stoppable and restartable on the same port.

export interface PrivateRedis {
  url: string;
  port: number;
  /** A connection for administrative commands (ACL, CLIENT KILL); reconnects after a restart. */
  admin: Redis;
  stop(): Promise<void>;
  start(): Promise<void>;
  destroy(): Promise<void>;
}

export const canRunPrivateRedis = (): boolean =>
  spawnSync('redis-server', ['--version'], { encoding: 'utf8' }).status === 0;

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await restartablePort();
  let server: ChildProcess | undefined;
  const admin = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  // This test connection is expected to lose its server; the test reads its replies, not its events.
  admin.on('error', () => undefined);
  async function start(): Promise<void> {
    server = spawn(
      'redis-server',
      ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await until(async () => {
      const probe = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        retryStrategy: () => null,
      });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG';
      } catch {
        return false;
      } finally {
        probe.disconnect();
      }
    }, `redis-server on port ${port}`);
  }
  async function stop(): Promise<void> {
    const current = server;
    server = undefined;
    if (!current || current.exitCode !== null) return;
    current.kill('SIGKILL');
    await exitOf(current);
  }
  await start();
  await admin.connect();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    admin,
    stop,
    start,
    async destroy() {
      admin.disconnect();
      await stop();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The standalone chat server (packages/chat-server/bin/daohuu-chat.mjs) as a child process.

export interface ChildChatServer {
  child: ChildProcess;
  baseURL: string;
  apiKey: string;
  apiSecret: string;
  /** Everything the process wrote so far (for failure messages). */
  output(): string;
  /** SIGKILL if still running, and removes its files (test clean-up). */
  kill(): Promise<void>;
}

export interface ChildDatabase {
  /** Environment selecting the database (CHAT_DATABASE_FILE or DATABASE_URL). */
  env: Record<string, string>;
  /** The schema's application_name on PostgreSQL (to find the node's backends). */
  applicationName?: string;
  drop(): Promise<void>;
}

/** A fresh database for child servers on the dialect of the current project: a SQLite file or a PostgreSQL schema. */
export async function childDatabase(postgresUrl?: string): Promise<ChildDatabase> {
  const url =
    postgresUrl ??
    (process.env.CHAT_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined);
  if (url) {
    const { serverUrl, applicationName, drop } = await createSchema(url);
    return { env: { DATABASE_URL: serverUrl }, applicationName, drop };
  }
  const dir = mkdtempSync(join(tmpdir(), 'chat-child-db-'));
  return {
    env: { CHAT_DATABASE_FILE: join(dir, 'chat.sqlite') },
    drop: async () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Starts the chat CLI on 127.0.0.1 and a free port; resolves once it listens (it logs its address). Pass the
 * credentials of an earlier server on the same database to see its data again.
 */
export async function startChildChatServer(
  database: ChildDatabase,
  env: Record<string, string> = {},
  credentials?: { apiKey: string; apiSecret: string },
): Promise<ChildChatServer> {
  const apiKey = credentials?.apiKey ?? `child-key-${randomBytes(4).toString('hex')}`;
  const apiSecret = credentials?.apiSecret ?? randomBytes(16).toString('hex');
  const uploads = mkdtempSync(join(tmpdir(), 'chat-child-files-'));
  const redis =
    process.env.CHAT_TEST_PUBSUB === 'redis' && process.env.REDIS_URL
      ? { REDIS_URL: process.env.REDIS_URL }
      : {};
  const child = spawn(process.execPath, [cliFile], {
    cwd: uploads,
    env: {
      PATH: process.env.PATH ?? '',
      STREAM_API_KEY: apiKey,
      STREAM_API_SECRET: apiSecret,
      CHAT_HOST: '127.0.0.1',
      CHAT_PORT: '0',
      CHAT_UPLOADS_DIR: uploads,
      LOG_LEVEL: 'info',
      ...redis,
      ...database.env,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      rmSync(uploads, { recursive: true, force: true });
      reject(new Error(`the chat server did not start: ${output}`));
    }, PROCESS_TIMEOUT_MS);
    const onData = () => {
      const match = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      rmSync(uploads, { recursive: true, force: true });
      reject(new Error(`the chat server exited with ${code}: ${output}`));
    });
  });
  return {
    child,
    baseURL: `http://127.0.0.1:${port}`,
    apiKey,
    apiSecret,
    output: () => output,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exitOf(child);
      rmSync(uploads, { recursive: true, force: true });
    },
  };
}
