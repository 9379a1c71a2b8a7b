import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './harness.ts';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));
const mainFile = join(repoRoot, 'apps/server/src/main.ts');
const running: ChildProcess[] = [];

afterEach(() => {
  for (const child of running.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

function startMain(env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', mainFile], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const listening = new Promise<number>((resolve, reject) => {
    child.stdout?.on('data', () => {
      const match = /listening on [^:]+:(\d+)/.exec(stdout);
      if (match) resolve(Number(match[1]));
    });
    void exited.then((code) =>
      reject(new Error(`exited with ${code} before listening: ${stderr}`)),
    );
  });
  // Marked handled: a test that expects the process to fail never awaits `listening`.
  listening.catch(() => undefined);
  return { child, exited, listening, output: () => ({ stdout, stderr }) };
}

describe('main', () => {
  it('listens, serves, and exits 0 on SIGTERM', async () => {
    const dir = tempDir();
    const server = startMain({
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: join(dir, 'data'),
      SEED_DEMO: 'false',
      LOG_LEVEL: 'info',
    });
    const port = await server.listening;
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(await health.json()).toMatchObject({ status: 'ok' });

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });

  it('refuses to start on bad configuration, listing every problem', async () => {
    const server = startMain({
      PORT: 'abc',
      SEED_DEMO: 'maybe',
      DATA_DIR: join(tempDir(), 'data'),
    });
    expect(await server.exited).toBe(1);
    const { stderr } = server.output();
    expect(stderr).toContain('PORT');
    expect(stderr).toContain('SEED_DEMO');
  });
});
