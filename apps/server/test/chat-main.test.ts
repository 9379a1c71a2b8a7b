import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { StreamChat } from 'stream-chat';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './harness.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const mainFile = join(repoRoot, 'apps/server/src/main.ts');
const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** Starts main.ts and resolves with the port once `line` has been logged (or rejects if it exits first). */
function startMainUntil(env: Record<string, string>, line: RegExp) {
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const ready = new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const port = /listening on [^:]+:(\d+)/.exec(stdout)?.[1];
      if (port && line.test(stdout)) resolve(Number(port));
    });
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    void exited.then((code) => reject(new Error(`exited with ${code}: ${stderr}${stdout}`)));
  });
  ready.catch(() => undefined);
  return { child, exited, ready };
}

describe('main with embedded chat', () => {
  it('seeds the chat demo conversation after listening, serves it at /chat, and exits 0 on SIGTERM', async () => {
    const server = startMainUntil(
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: join(tempDir(), 'data'),
        SEED_DEMO: 'true',
        LOG_LEVEL: 'info',
      },
      /Seeded the chat demo conversation/,
    );
    const port = await server.ready;
    const response = await fetch(`http://127.0.0.1:${port}/api/chat/config`);
    const config = (await response.json()) as { apiKey: string; baseURL: string };
    expect(config.baseURL).toBe(`http://127.0.0.1:${port}/chat`);

    const guest = new StreamChat(config.apiKey, {
      baseURL: config.baseURL,
      allowServerSideConnect: true,
    });
    try {
      await guest.connectAnonymousUser();
      const channel = guest.channel('sect', 'luan-dao');
      await channel.watch();
      expect(channel.state.pinnedMessages.map((message) => message.id)).toEqual([
        'demo-luan-dao-01',
      ]);
    } finally {
      await guest.disconnectUser();
    }

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
