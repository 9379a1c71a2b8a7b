import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chatApiKey,
  chatClient,
  chatToken,
  listeningApp,
  storedChatCredentials,
} from './chat-harness.ts';
import { signedUpUser, startApp, tempDir, testConfig } from './harness.ts';

describe('embedded chat credentials', () => {
  it('are generated once into DATA_DIR/secrets.json, beside the session secret, readable only by the owner', async () => {
    const config = testConfig({}, tempDir());
    const app = await startApp(config);
    const file = join(config.dataDir, 'secrets.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secrets = JSON.parse(readFileSync(file, 'utf8'));
    expect(secrets.streamApiKey).toMatch(/^[0-9a-f]{16}$/);
    expect(secrets.streamApiSecret).toMatch(/^[\w-]{43}$/);
    expect(typeof secrets.betterAuthSecret).toBe('string');
    expect(await chatApiKey(app)).toBe(secrets.streamApiKey);
  });

  it('survive a restart: a token minted before it still connects after it', async () => {
    const config = testConfig({}, tempDir());
    const first = await listeningApp({}, config);
    const { cookie } = await signedUpUser(first.app);
    const { token, userId } = await chatToken(first.app, cookie);
    const before = storedChatCredentials(config.dataDir);
    await first.close();

    const second = await listeningApp({}, config);
    try {
      expect(storedChatCredentials(config.dataDir)).toEqual(before);
      expect(await chatApiKey(second.app)).toBe(before.apiKey);
      const client = chatClient(before.apiKey, second.chatURL);
      await client.connectUser({ id: userId }, token);
      expect(client.user?.id).toBe(userId);
      await client.disconnectUser();
    } finally {
      await second.close();
    }
  });

  it('come from STREAM_API_KEY and STREAM_API_SECRET when both are set, and are not written down', async () => {
    const config = testConfig(
      {
        STREAM_API_KEY: 'khoa-tu-moi-truong',
        STREAM_API_SECRET: 'bi-mat-tu-moi-truong-du-dai',
        BETTER_AUTH_SECRET: 'a-fixed-secret-that-is-long-enough-1234',
      },
      tempDir(),
    );
    const app = await startApp(config);
    expect(await chatApiKey(app)).toBe('khoa-tu-moi-truong');
    expect(existsSync(join(config.dataDir, 'secrets.json'))).toBe(false);
  });

  it('complete a half-written pair without replacing the half that exists', async () => {
    const config = testConfig({}, tempDir());
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(
      join(config.dataDir, 'secrets.json'),
      JSON.stringify({ streamApiKey: 'khoa-da-co' }),
    );
    await startApp(config);
    const stored = storedChatCredentials(config.dataDir);
    expect(stored.apiKey).toBe('khoa-da-co');
    expect(stored.apiSecret).toMatch(/^[\w-]{43}$/);
  });

  it('keep the chat database in its own file, DATA_DIR/chat.db', async () => {
    const config = testConfig({}, tempDir());
    await startApp(config);
    expect(existsSync(join(config.dataDir, 'chat.db'))).toBe(true);
    expect(existsSync(join(config.dataDir, 'daohuu.db'))).toBe(true);
  });
});
