import { fork, type ChildProcess } from 'node:child_process';
import type { ChildMessage, MemorySample, ParentMessage, ServerInfo } from './child-protocol.ts';
import { processMemory } from './proc-stats.ts';

const TAIL_BYTES = 4_000;

interface TrackedChild {
  process: ChildProcess;
  name: string;
  tail: string;
}

/** Every child the benchmark starts, so each one is stopped by its own pid whatever happens. */
export class Children {
  private readonly tracked = new Set<TrackedChild>();

  start(name: string, script: string, options: { args?: string[]; execArgv?: string[]; env?: NodeJS.ProcessEnv }) {
    const child = fork(script, options.args ?? [], {
      execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const tracked: TrackedChild = { process: child, name, tail: '' };
    // A child that already closed its IPC channel makes send() fail with EPIPE; exit handling covers that case.
    child.on('error', (error) => {
      tracked.tail = `${tracked.tail}\n${String(error)}`.slice(-TAIL_BYTES);
    });
    const keepTail = (chunk: Buffer): void => {
      tracked.tail = (tracked.tail + chunk.toString()).slice(-TAIL_BYTES);
    };
    // Drained even when unused: a full pipe would block the child's writes and distort its timings.
    child.stdout?.on('data', keepTail);
    child.stderr?.on('data', keepTail);
    this.tracked.add(tracked);
    child.once('exit', () => this.tracked.delete(tracked));
    return tracked;
  }

  /** Asks the child to exit cleanly (so a --cpu-prof profile is written), then kills its pid if it does not. */
  async stop(tracked: TrackedChild, graceMs = 10_000): Promise<void> {
    const child = tracked.process;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    if (child.connected) child.send({ type: 'stop' } satisfies ParentMessage);
    else child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }

  /** Last resort on exit or abort: SIGKILL each remaining child by pid. */
  killAll(): void {
    for (const tracked of this.tracked) tracked.process.kill('SIGKILL');
  }
}

export type Tracked = ReturnType<Children['start']>;

/** Resolves with the server's address once it reports ready; rejects with its output if it dies first. */
export function waitForReady(tracked: Tracked, timeoutMs: number): Promise<ServerInfo> {
  return new Promise((resolve, reject) => {
    const child = tracked.process;
    const timer = setTimeout(() => fail(`${tracked.name} not ready within ${timeoutMs / 1000} s`), timeoutMs);
    const onMessage = (message: ChildMessage): void => {
      if (message.type !== 'ready') return;
      cleanup();
      resolve(message.server);
    };
    const onExit = (code: number | null): void => fail(`${tracked.name} exited (${code}) before it was ready`);
    const fail = (reason: string): void => {
      cleanup();
      reject(new Error(`${reason}\n${tracked.tail}`));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

/** Full GC in the server child, then its RSS from /proc; falls back to a plain reading if it does not answer. */
export function sampleServerMemory(server: Tracked): Promise<MemorySample> {
  return new Promise((resolve) => {
    const child = server.process;
    const pid = child.pid ?? 0;
    const finish = (heapUsed: number): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve({ rss: processMemory(pid).rss, heapUsed });
    };
    const onMessage = (message: ChildMessage): void => {
      if (message.type === 'gc-done') finish(message.heapUsed);
    };
    const timer = setTimeout(() => finish(Number.NaN), 10_000);
    child.on('message', onMessage);
    child.send({ type: 'gc' } satisfies ParentMessage);
  });
}

/** Sends one profiler command to a server child and waits for its acknowledgement (bounded). */
function controlProfile(server: Tracked, message: ParentMessage): Promise<void> {
  return new Promise((resolve) => {
    const child = server.process;
    const done = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve();
    };
    const onMessage = (reply: ChildMessage): void => {
      if (reply.type === 'profile-ack') done();
    };
    const timer = setTimeout(done, 30_000);
    child.on('message', onMessage);
    if (child.connected) child.send(message);
    else done();
  });
}

export interface GeneratorServer {
  tracked: Tracked;
  /** When set, the server is profiled phase by phase into `<profileDir>/<profilePrefix>-<phase>.cpuprofile`. */
  profileDir: string | null;
  profilePrefix: string;
}

/**
 * Sends a run config to a generator child and resolves with its result. Progress lines go to stderr; memory and
 * phase requests are answered by sampling or profiling `server`.
 */
export function runGenerator<T>(
  tracked: Tracked,
  config: unknown,
  timeoutMs: number,
  server?: GeneratorServer,
): Promise<T> {
  let profiling: string | null = null;
  const profiles: string[] = [];
  const stopProfile = async (): Promise<void> => {
    if (!server || !profiling) return;
    await controlProfile(server.tracked, { type: 'profile-stop', path: profiling });
    profiles.push(profiling);
    profiling = null;
  };
  const onPhase = async (name: string): Promise<void> => {
    await stopProfile();
    if (server?.profileDir) {
      profiling = `${server.profileDir}/${server.profilePrefix}-${name}.cpuprofile`;
      await controlProfile(server.tracked, { type: 'profile-start' });
    }
  };
  const result = new Promise<T>((resolve, reject) => {
    const child = tracked.process;
    const timer = setTimeout(() => fail(`${tracked.name} gave no result within ${timeoutMs / 1000} s`), timeoutMs);
    const onMessage = (message: ChildMessage): void => {
      if (message.type === 'progress') {
        console.error(`  ${message.line}`);
      } else if (message.type === 'measure-memory') {
        const reply = (sample: MemorySample): void => {
          if (child.connected) child.send({ type: 'memory', sample } satisfies ParentMessage);
        };
        if (server) void sampleServerMemory(server.tracked).then(reply);
        else reply({ rss: Number.NaN, heapUsed: Number.NaN });
      } else if (message.type === 'phase') {
        void onPhase(message.name).then(() => {
          if (child.connected) child.send({ type: 'phase-ack' } satisfies ParentMessage);
        });
      } else if (message.type === 'result') {
        cleanup();
        resolve(message.result as T);
      } else if (message.type === 'failed') {
        fail(`${tracked.name} failed: ${message.error}`);
      }
    };
    const onExit = (code: number | null): void => fail(`${tracked.name} exited (${code}) without a result`);
    const fail = (reason: string): void => {
      cleanup();
      reject(new Error(`${reason}\n${tracked.tail}`));
    };
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
    child.send({ type: 'run', config } satisfies ParentMessage);
  });
  return result.finally(stopProfile);
}
