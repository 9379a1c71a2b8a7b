// How the orchestrator and its child processes talk: Node's IPC channel (child_process.fork).

export interface ServerInfo {
  baseURL: string;
  apiKey: string;
  apiSecret: string;
}

export interface MemorySample {
  rss: number;
  heapUsed: number;
}

export type ChildMessage =
  | { type: 'ready'; server: ServerInfo }
  | { type: 'gc-done'; heapUsed: number }
  | { type: 'measure-memory' }
  | { type: 'phase'; name: string }
  | { type: 'profile-ack' }
  | { type: 'prepared' }
  | { type: 'step-done'; result: unknown }
  | { type: 'result'; result: unknown }
  | { type: 'failed'; error: string }
  | { type: 'progress'; line: string };

export type ParentMessage =
  | { type: 'stop' }
  | { type: 'run'; config: unknown }
  | { type: 'step'; rate: number }
  | { type: 'finish' }
  | { type: 'gc' }
  | { type: 'memory'; sample: MemorySample }
  | { type: 'phase-ack' }
  | { type: 'profile-start' }
  | { type: 'profile-stop'; path: string };

export function sendToParent(message: ChildMessage): void {
  process.send?.(message);
}

export function announceReady(server: ServerInfo): void {
  sendToParent({ type: 'ready', server });
}

export function progress(line: string): void {
  sendToParent({ type: 'progress', line });
}

/**
 * Exits cleanly (so `--cpu-prof` gets written) on SIGTERM, SIGINT, a `stop` message, or when the parent goes away:
 * a child must never outlive the benchmark.
 */
export function exitOnStop(cleanup: () => Promise<void>): void {
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(0), 5_000);
    force.unref();
    cleanup()
      .catch((error: unknown) => console.error('cleanup failed:', error))
      .finally(() => process.exit(0));
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  process.on('disconnect', stop);
  process.on('message', (message: ParentMessage) => {
    if (message.type === 'stop') stop();
    // Servers run with --expose-gc so idle memory is read after a full collection (docs/benchmark-method.md).
    if (message.type === 'gc') {
      const collect = (globalThis as { gc?: () => void }).gc;
      collect?.();
      sendToParent({ type: 'gc-done', heapUsed: process.memoryUsage().heapUsed });
    }
  });
}

/** Asks the orchestrator to garbage-collect the server and read its RSS (generators cannot reach its process). */
export function measureServerMemory(): Promise<MemorySample> {
  return new Promise((resolve) => {
    const onMessage = (message: ParentMessage): void => {
      if (message.type !== 'memory') return;
      process.off('message', onMessage);
      resolve(message.sample);
    };
    process.on('message', onMessage);
    sendToParent({ type: 'measure-memory' });
  });
}

/**
 * Tells the orchestrator a new load phase starts (connect, watch, one rate step…) and waits until it is ready, so a
 * per-phase server profile (`--profile`) starts exactly at the boundary.
 */
export function enterPhase(name: string): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (message: ParentMessage): void => {
      if (message.type !== 'phase-ack') return;
      process.off('message', onMessage);
      resolve();
    };
    process.on('message', onMessage);
    sendToParent({ type: 'phase', name });
  });
}

/** Generator entry point: waits for its config, runs, reports, and exits once the report is on its way. */
export async function runAsGenerator<Config>(
  run: (config: Config) => Promise<unknown>,
): Promise<void> {
  exitOnStop(async () => {});
  const config = await waitForConfig<Config>();
  let message: ChildMessage;
  try {
    message = { type: 'result', result: await run(config) };
  } catch (error) {
    message = { type: 'failed', error: errorText(error) };
  }
  exitAfter(message);
}

/** Sends a last message and exits once it is on its way. */
export function exitAfter(message: ChildMessage): void {
  if (process.send) process.send(message, () => process.exit(0));
  else process.exit(0);
}

export function errorText(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

/** Resolves with the `run` config the parent sends once this child is listening. */
export function waitForConfig<T>(): Promise<T> {
  return new Promise((resolve) => {
    const onMessage = (message: ParentMessage): void => {
      if (message.type !== 'run') return;
      process.off('message', onMessage);
      resolve(message.config as T);
    };
    process.on('message', onMessage);
  });
}
