import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import type { ChatServerConfigInput } from '../../src/config.ts';

/** A chat node running in a child process (chat-node-entry.ts). */
export interface ChatNodeProcess {
  port: number;
  /** http://127.0.0.1:<port> */
  baseURL: string;
  child: ChildProcess;
  /** Sockets the node holds now. */
  socketCount(): Promise<number>;
  /** True while the process runs: a crash (an unhandled rejection, say) ends it. */
  alive(): boolean;
  /** What the node printed (its warn-level log and anything on stderr), for failure messages. */
  output(): string;
  /** SIGTERM (graceful) unless told otherwise; resolves once the process is gone. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const ENTRY = join(import.meta.dirname, 'chat-node-entry.ts');
const DOMAIN = join(import.meta.dirname, '../../../domain/src/index.ts');
/** Inside the package, so the bundle's bare imports resolve to its node_modules as the sources' do. */
const BUNDLES = join(import.meta.dirname, '../../node_modules/.cache/chat-node-test');
// Starting a node on a loaded two-core machine (several test files at once) takes a while.
const START_TIMEOUT_MS = 90_000;
const ANSWER_TIMEOUT_MS = 5_000;
/** Keeps the last this many characters of a node's output. */
const OUTPUT_KEPT = 20_000;

/** Starts a node on 127.0.0.1 and a free port with `config` (its `http` section is filled in here). */
export async function spawnChatNode(config: ChatServerConfigInput): Promise<ChatNodeProcess> {
  const full = { logLevel: 'warn', ...config, http: { host: '127.0.0.1', port: 0 } };
  const child = spawn(process.execPath, [await nodeBundle()], {
    env: { ...process.env, CHAT_NODE_CONFIG: JSON.stringify(full) },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  let printed = '';
  const keep = (chunk: Buffer) => {
    printed = (printed + chunk.toString('utf8')).slice(-OUTPUT_KEPT);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const port = await listeningPort(child, () => printed);
  return {
    port,
    baseURL: `http://127.0.0.1:${port}`,
    child,
    socketCount: () => askSockets(child),
    alive: () => child.exitCode === null && child.signalCode === null,
    output: () => printed,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

let bundling: Promise<string> | undefined;

/**
 * The node's code as one ES module (npm packages left as imports), built once per test process: a node started
 * through tsx compiles and loads hundreds of files and took twice as long to listen (measured 26 s against 14 s on
 * a loaded machine), which test files starting several nodes pay each time. One file for every test process, each
 * replacing it whole by a rename (a node already reading the old one keeps it), so nothing accumulates.
 */
function nodeBundle(): Promise<string> {
  bundling ??= (async () => {
    mkdirSync(BUNDLES, { recursive: true });
    const outfile = join(BUNDLES, 'chat-node.mjs');
    const result = await build({
      entryPoints: [ENTRY],
      outfile,
      write: false,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      packages: 'external',
      // The workspace's own package is TypeScript source: bundled in, not imported.
      alias: { '@daohuu/domain': DOMAIN },
      logLevel: 'warning',
    });
    const partial = `${outfile}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, result.outputFiles[0]!.contents);
    renameSync(partial, outfile);
    return outfile;
  })();
  return bundling;
}

function listeningPort(child: ChildProcess, printed: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`chat node did not start in time:\n${printed()}`));
    }, START_TIMEOUT_MS);
    child.on('message', (message: { kind?: string; port?: number }) => {
      if (message.kind !== 'listening') return;
      clearTimeout(timer);
      resolve(message.port ?? 0);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`chat node exited (${code ?? signal}) while starting:\n${printed()}`));
    });
  });
}

function askSockets(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error('chat node did not answer the socket count'));
    }, ANSWER_TIMEOUT_MS);
    function onMessage(message: { kind?: string; count?: number }) {
      if (message.kind !== 'sockets') return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(message.count ?? 0);
    }
    child.on('message', onMessage);
    child.send('sockets');
  });
}
