import { readFileSync, statSync, existsSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { apiRequest, signedUpUser, startApp, tempDir, testConfig } from './harness.ts';

describe('session secret', () => {
  it('is generated once into DATA_DIR/secrets.json, readable only by its owner', async () => {
    const dir = tempDir();
    const config = testConfig({}, dir);
    await startApp(config);
    const file = join(config.dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const { betterAuthSecret } = JSON.parse(readFileSync(file, 'utf8'));
    expect(betterAuthSecret).toMatch(/^[\w-]{43}$/);
  });

  it('keeps sessions valid across a restart', async () => {
    const dir = tempDir();
    const config = testConfig({}, dir);
    const first = await startApp(config);
    const { cookie, credentials } = await signedUpUser(first);
    const secret = readFileSync(join(config.dataDir, 'secrets.json'), 'utf8');
    await first.close();

    const second = await startApp(config);
    expect(readFileSync(join(config.dataDir, 'secrets.json'), 'utf8')).toBe(secret);
    const me = await apiRequest(second, 'GET', '/api/me', { cookie });
    expect(me.statusCode).toBe(200);
    expect(me.json().email).toBe(credentials.email);
  });

  it('keeps other keys of an existing secrets file', async () => {
    const dir = tempDir();
    const config = testConfig({}, dir);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(
      join(config.dataDir, 'secrets.json'),
      JSON.stringify({ streamApiSecret: 'keep-me' }),
    );
    await startApp(config);
    const secrets = JSON.parse(readFileSync(join(config.dataDir, 'secrets.json'), 'utf8'));
    expect(secrets.streamApiSecret).toBe('keep-me');
    expect(typeof secrets.betterAuthSecret).toBe('string');
  });

  it('writes no file when BETTER_AUTH_SECRET and the chat credentials are given', async () => {
    const dir = tempDir();
    const config = testConfig(
      {
        BETTER_AUTH_SECRET: 'a-fixed-secret-that-is-long-enough-1234',
        STREAM_API_KEY: 'khoa-co-dinh',
        STREAM_API_SECRET: 'bi-mat-co-dinh-cua-ung-dung-chat',
      },
      dir,
    );
    const app = await startApp(config);
    expect(existsSync(join(config.dataDir, 'secrets.json'))).toBe(false);
    expect((await signedUpUser(app)).cookie).toMatch(/better-auth\.session_token=/);
  });

  it('refuses to start on a corrupt secrets file instead of silently signing everyone out', async () => {
    const dir = tempDir();
    const config = testConfig({}, dir);
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(join(config.dataDir, 'secrets.json'), '{not json');
    await expect(startApp(config)).rejects.toThrow(/secrets\.json/);
  });

  it('creates DATA_DIR and the database file when they are missing', async () => {
    const dir = tempDir();
    const config = testConfig({ DATA_DIR: join(dir, 'nested', 'data') }, dir);
    await startApp(config);
    expect(existsSync(join(dir, 'nested', 'data', 'daohuu.db'))).toBe(true);
  });
});
