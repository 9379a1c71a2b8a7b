import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamChat } from 'stream-chat';
import { afterEach, describe, expect, it } from 'vitest';
import { uniqueId } from '../../../../packages/chat-server/test/contract/helpers.ts';
import {
  sendBurstAcrossSignal,
  expectDrained,
  storedMessageIds,
} from '../../../../packages/chat-server/test/security/drain-load.ts';
import {
  exitOf,
  PROCESS_TIMEOUT_MS,
} from '../../../../packages/chat-server/test/security/services.ts';

/*
 * #20 for the product server (apps/server/src/main.ts), which serves the chat API in-process at /chat: SIGTERM
 * must finish the chat sends it accepted, store them, close websockets for a reconnect and exit 0.
 */

const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
const mainFile = join(repoRoot, 'apps/server/src/main.ts');
const GRACE_MS = 15_000;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

interface Product {
  child: ChildProcess;
  chatURL: string;
  output(): string;
}

/** Starts main.ts on a free port and resolves once it listens. */
async function startProduct(env: Record<string, string>): Promise<Product> {
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? '',
      PORT: '0',
      HOST: '127.0.0.1',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: String(GRACE_MS),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exitOf(child);
  });
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`main.ts did not start: ${output}`)),
      PROCESS_TIMEOUT_MS,
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const port = /listening on [^:]+:(\d+)/.exec(output)?.[1];
      if (!port) return;
      clearTimeout(timer);
      resolve(Number(port));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`main.ts exited with ${code}: ${output}`));
    });
  });
  return { child, chatURL: `http://127.0.0.1:${port}/chat`, output: () => output };
}

describe(
  '#20 a shutdown of the product server in the middle of chat sends',
  { timeout: 180_000 },
  () => {
    it('SIGTERM answers and stores every chat send it accepted, closes websockets for a reconnect, and exits 0', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'daohuu-drain-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const apiKey = `drain-${randomBytes(4).toString('hex')}`;
      const apiSecret = randomBytes(24).toString('hex');
      const env = { DATA_DIR: dataDir, STREAM_API_KEY: apiKey, STREAM_API_SECRET: apiSecret };
      const product = await startProduct(env);
      const admin = new StreamChat(apiKey, apiSecret, { baseURL: product.chatURL });
      const userId = uniqueId('chuong-mon');
      const channelId = uniqueId('nghi-su-dien');
      await admin.upsertUsers([{ id: userId }]);
      await admin
        .channel('messaging', channelId, { created_by_id: userId, members: [userId] })
        .create();
      const closes: number[] = [];
      const watcher = new StreamChat(apiKey, {
        baseURL: product.chatURL,
        allowServerSideConnect: true,
        logger: (_level, message) => {
          const code = /onclose\(\) - onclose callback - (\d+)/.exec(message)?.[1];
          if (code) closes.push(Number(code));
        },
      });
      cleanups.push(() => watcher.disconnectUser(500));
      await watcher.connectUser({ id: userId }, admin.createToken(userId));

      const { outcomes } = await sendBurstAcrossSignal({
        baseURL: product.chatURL,
        apiKey,
        apiSecret,
        channelType: 'messaging',
        channelId,
        userId,
        count: 150,
        signalAfter: 20,
        signal: () => product.child.kill('SIGTERM'),
      });
      const exitCode = await exitOf(product.child, GRACE_MS + 20_000);

      const restarted = await startProduct(env);
      const stored = await storedMessageIds(
        restarted.chatURL,
        apiKey,
        apiSecret,
        'messaging',
        channelId,
      );
      expect(exitCode, product.output()).toBe(0);
      expectDrained(outcomes, stored);
      expect(closes.length).toBeGreaterThan(0);
      expect(closes).not.toContain(1000);
    });
  },
);
