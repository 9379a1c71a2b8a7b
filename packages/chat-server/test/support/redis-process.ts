import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { restartablePort } from './ports.ts';

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
  const port = await restartablePort();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const start = async () => {
    child = spawn(
      REDIS_SERVER_BINARY,
      ['--bind', '127.0.0.1', '--port', String(port), '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const current = child;
    exited = new Promise((resolve) => current.once('exit', () => resolve()));
    await readyLine(current, port);
  };
  const kill = async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, kill, start, stop: kill };
}

/**
 * Resolves once this very redis-server says it accepts connections: a probe of the port could be answered by
 * another process that took the port while ours was down.
 */
function readyLine(child: ChildProcess, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let printed = '';
    const timer = setTimeout(
      () => fail(new Error(`redis-server on port ${port} did not start`)),
      START_TIMEOUT_MS,
    );
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.stdout?.removeAllListeners('data');
      reject(error);
    };
    child.once('exit', () =>
      fail(new Error(`redis-server on port ${port} exited: ${printed.slice(-500)}`)),
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      printed += chunk.toString();
      if (!printed.includes('Ready to accept connections')) return;
      clearTimeout(timer);
      // Keep draining its log so a full pipe never stalls it.
      child.stdout?.removeAllListeners('data');
      child.stdout?.resume();
      resolve();
    });
  });
}
