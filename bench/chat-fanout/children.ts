import { fork, type ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
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
  /** Scheduling priority for every child (negative = ahead of other sessions' builds; needs root, else ignored). */
  priority = 0;
  /** Set by killAll: the run is ending, so a phase still under way must not start new children. */
  private closed = false;

  start(
    name: string,
    script: string,
    options: { args?: string[]; execArgv?: string[]; env?: NodeJS.ProcessEnv },
  ) {
    if (this.closed) throw new Error(`not starting ${name}: the benchmark is stopping`);
    const child = fork(script, options.args ?? [], {
      execArgv: ['--import', 'tsx', ...(options.execArgv ?? [])],
      env: options.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    });
    const tracked: TrackedChild = { process: child, name, tail: '' };
    if (this.priority !== 0 && child.pid !== undefined) {
      try {
        setPriority(child.pid, this.priority);
      } catch {
        // Not permitted (not root): run at normal priority; the "other CPU" column shows the interference.
      }
    }
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
    this.closed = true;
    for (const tracked of this.tracked) tracked.process.kill('SIGKILL');
  }
}

export type Tracked = ReturnType<Children['start']>;

/** Resolves with the server's address once it reports ready; rejects with its output if it dies first. */
export function waitForReady(tracked: Tracked, timeoutMs: number): Promise<ServerInfo> {
  return new Promise((resolve, reject) => {
    const child = tracked.process;
    const timer = setTimeout(
      () => fail(`${tracked.name} not ready within ${timeoutMs / 1000} s`),
      timeoutMs,
    );
    const onMessage = (message: ChildMessage): void => {
      if (message.type !== 'ready') return;
      cleanup();
      resolve(message.server);
    };
    const onExit = (code: number | null): void =>
      fail(`${tracked.name} exited (${code}) before it was ready`);
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

/**
 * Full GC in the server child, then its RSS from /proc; falls back to a plain reading if it does not answer. Rejects,
 * naming the server and its last output, if it has exited (a server killed by a limit, say) instead of reading the
 * /proc of a pid that is gone.
 */
export function sampleServerMemory(server: Tracked): Promise<MemorySample> {
  return new Promise((resolve, reject) => {
    const child = server.process;
    const pid = child.pid ?? 0;
    const exited = (): Error =>
      new Error(
        `${server.name} exited (${child.exitCode ?? child.signalCode}) during the run\n${server.tail}`,
      );
    if (child.exitCode !== null || child.signalCode !== null) {
      reject(exited());
      return;
    }
    const cleanup = (): void => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    const finish = (heapUsed: number): void => {
      cleanup();
      try {
        resolve({ rss: processMemory(pid).rss, heapUsed });
      } catch {
        reject(exited());
      }
    };
    const onMessage = (message: ChildMessage): void => {
      if (message.type === 'gc-done') finish(message.heapUsed);
    };
    const onExit = (): void => {
      cleanup();
      reject(exited());
    };
    const timer = setTimeout(() => finish(Number.NaN), 10_000);
    child.on('message', onMessage);
    child.once('exit', onExit);
    if (child.connected) child.send({ type: 'gc' } satisfies ParentMessage);
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

export interface GeneratorOptions {
  /** The server nodes this generator loads: memory requests sample them all (summed), phases profile the first. */
  servers: Tracked[];
  /** When set, the server is profiled phase by phase into `<profileDir>/<profilePrefix>-<phase>.cpuprofile`. */
  profileDir: string | null;
  profilePrefix: string;
}

/**
 * The orchestrator's side of one generator child: request/response over IPC, while answering the generator's own
 * requests (progress lines to stderr, server memory samples, phase boundaries for per-phase profiles).
 */
export class GeneratorLink {
  private profiling: string | null = null;
  private pending: {
    expect: ChildMessage['type'];
    resolve(message: ChildMessage): void;
    reject(error: Error): void;
  } | null = null;

  constructor(
    private readonly generator: Tracked,
    private readonly options: GeneratorOptions,
  ) {
    const child = generator.process;
    child.on('message', (message: ChildMessage) => this.onMessage(message));
    child.once('exit', (code) => this.fail(`${generator.name} exited (${code}) before answering`));
  }

  /** Sends `message` and resolves with the reply of type `expect` (or rejects on failure, exit or timeout). */
  request<T extends ChildMessage['type']>(
    message: ParentMessage,
    expect: T,
    timeoutMs: number,
  ): Promise<Extract<ChildMessage, { type: T }>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.fail(`${this.generator.name} gave no "${expect}" within ${timeoutMs / 1000} s`),
        timeoutMs,
      );
      this.pending = {
        expect,
        resolve: (reply) => {
          clearTimeout(timer);
          resolve(reply as Extract<ChildMessage, { type: T }>);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const child = this.generator.process;
      if (child.connected) child.send(message);
      else this.fail(`${this.generator.name} is not connected`);
    });
  }

  /** Ends the profile of the phase under way, if any. */
  async stopProfile(): Promise<void> {
    const path = this.profiling;
    if (!path) return;
    this.profiling = null;
    const [server] = this.options.servers;
    if (server) await controlProfile(server, { type: 'profile-stop', path });
  }

  private onMessage(message: ChildMessage): void {
    const child = this.generator.process;
    if (message.type === 'progress') {
      console.error(`  ${message.line}`);
    } else if (message.type === 'measure-memory') {
      Promise.all(this.options.servers.map(sampleServerMemory)).then(
        (samples) => {
          const sample = samples.reduce(
            (sum, one) => ({ rss: sum.rss + one.rss, heapUsed: sum.heapUsed + one.heapUsed }),
            { rss: 0, heapUsed: 0 },
          );
          if (child.connected) child.send({ type: 'memory', sample } satisfies ParentMessage);
        },
        (error: unknown) => this.fail(error instanceof Error ? error.message : String(error)),
      );
    } else if (message.type === 'phase') {
      void this.onPhase(message.name).then(() => {
        if (child.connected) child.send({ type: 'phase-ack' } satisfies ParentMessage);
      });
    } else if (message.type === 'failed') {
      this.fail(`${this.generator.name} failed: ${message.error}`);
    } else if (this.pending && message.type === this.pending.expect) {
      const pending = this.pending;
      this.pending = null;
      pending.resolve(message);
    }
  }

  private async onPhase(name: string): Promise<void> {
    await this.stopProfile();
    if (this.options.profileDir) {
      this.profiling = `${this.options.profileDir}/${this.options.profilePrefix}-${name}.cpuprofile`;
      const [server] = this.options.servers;
      if (server) await controlProfile(server, { type: 'profile-start' });
    }
  }

  private fail(reason: string): void {
    const pending = this.pending;
    this.pending = null;
    pending?.reject(new Error(`${reason}\n${this.generator.tail}`));
  }
}
