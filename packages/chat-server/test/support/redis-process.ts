import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createConnection } from 'node:net';
import { freePort } from './nginx.ts';

/*
 * A private redis-server for tests that take Redis away: never the shared one other suites use (REDIS_URL). It keeps
 * nothing on disk, so a restart comes back empty, as a Redis without persistence does after a crash.
 */

export const REDIS_SERVER_BINARY = ['/usr/bin/redis-server', '/usr/local/bin/redis-server'].find(
  (path) => existsSync(path),
);

const START_TIMEOUT_MS = 10_000;

export interface RedisProcess {
  url: string;
  /** SIGKILL: every connection drops at once, nothing is said to the clients. */
  kill(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function startRedisProcess(): Promise<RedisProcess> {
  if (!REDIS_SERVER_BINARY) throw new Error('redis-server is not installed');
  const port = await freePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    child = spawn(
      REDIS_SERVER_BINARY,
      ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const current = child;
    exited = new Promise((resolve) => current.once('exit', () => resolve()));
    await waitForPort(port, current);
  };
  const kill = async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill, start, stop: kill };
}

/** Resolves once something accepts connections on `port`. */
export async function waitForPort(port: number, child?: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child && child.exitCode !== null) throw new Error(`process on port ${port} exited`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port }, () => {
        socket.end();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing listens on port ${port}`);
}
