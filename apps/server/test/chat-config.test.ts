import { describe, expect, it } from 'vitest';
import { embeddedChatConfig } from '../src/chat/embedded-chat.ts';
import { ConfigError, loadConfig } from '../src/config.ts';

function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('chat configuration', () => {
  it('reads hosted mode with its credentials, base URL and timeouts', () => {
    const config = loadConfig({
      CHAT_MODE: 'hosted',
      STREAM_API_KEY: 'khoa',
      STREAM_API_SECRET: 'bi-mat',
      STREAM_BASE_URL: 'https://chat-proxy-singapore.stream-io-api.com/',
      CHAT_TOKEN_TTL_SECONDS: '1',
      CHAT_REQUEST_TIMEOUT_MS: '250',
    });
    expect(config.chat).toEqual({
      mode: 'hosted',
      credentials: { apiKey: 'khoa', apiSecret: 'bi-mat' },
      baseURL: 'https://chat-proxy-singapore.stream-io-api.com',
      tokenTtlSeconds: 1,
      requestTimeoutMs: 250,
    });
  });

  it('leaves the hosted base URL to the client when STREAM_BASE_URL is unset', () => {
    const config = loadConfig({ CHAT_MODE: 'hosted', STREAM_API_KEY: 'k', STREAM_API_SECRET: 's' });
    expect(config.chat).toMatchObject({ mode: 'hosted', baseURL: undefined });
  });

  it.each([
    ['STREAM_API_KEY', { STREAM_API_SECRET: 's' }],
    ['STREAM_API_SECRET', { STREAM_API_KEY: 'k' }],
  ])('refuses half a credential pair in embedded mode, naming the missing %s', (missing, env) => {
    expect(problemsOf(env)).toEqual([
      `${missing}: must be set together with ${Object.keys(env)[0]}`,
    ]);
  });

  it('refuses an unknown CHAT_MODE', () => {
    expect(problemsOf({ CHAT_MODE: 'cloud' })).toEqual([
      'CHAT_MODE: must be one of embedded, hosted (got "cloud")',
    ]);
  });

  it.each([['0'], ['-1'], ['1.5'], ['2592001']])('refuses CHAT_TOKEN_TTL_SECONDS=%s', (value) => {
    expect(problemsOf({ CHAT_TOKEN_TTL_SECONDS: value })[0]).toMatch(/^CHAT_TOKEN_TTL_SECONDS: /);
  });

  it.each([['ftp://stream.example'], ['chat.stream-io-api.com']])(
    'refuses STREAM_BASE_URL=%s',
    (value) => {
      expect(problemsOf({ STREAM_BASE_URL: value })[0]).toMatch(
        /^STREAM_BASE_URL: must be an absolute http\(s\) URL/,
      );
    },
  );

  it('refuses a DATABASE_URL or REDIS_URL of the wrong kind without echoing them (they may hold passwords)', () => {
    const problems = problemsOf({
      DATABASE_URL: 'mysql://root:hunter2@db/chat',
      REDIS_URL: 'http://:hunter2@cache',
    });
    expect(problems.map((problem) => problem.split(':', 1)[0])).toEqual([
      'DATABASE_URL',
      'REDIS_URL',
    ]);
    expect(problems.join('\n')).not.toContain('hunter2');
  });

  it('never echoes STREAM_API_SECRET', () => {
    const problems = problemsOf({ CHAT_MODE: 'hosted', STREAM_API_SECRET: 'bi-mat-tuyet-doi' });
    expect(problems).toEqual(['STREAM_API_KEY: is required when CHAT_MODE=hosted']);
    expect(problems.join('\n')).not.toContain('bi-mat-tuyet-doi');
  });
});

describe('embedded chat server configuration', () => {
  const credentials = { apiKey: 'khoa', apiSecret: 'bi-mat' };

  it('keeps the chat database in DATA_DIR/chat.db with in-process fan-out by default', () => {
    expect(
      embeddedChatConfig({
        credentials,
        dataDir: '/srv/daohuu/data',
        databaseUrl: undefined,
        redisUrl: undefined,
        logLevel: 'warn',
      }),
    ).toEqual({
      apps: [{ key: 'khoa', secret: 'bi-mat', serverOnlyUserFields: ['tu_vi'] }],
      db: { kind: 'sqlite', file: '/srv/daohuu/data/chat.db' },
      pubsub: { kind: 'memory' },
      uploads: { dir: '/srv/daohuu/data/uploads' },
      linkPreview: { allowHosts: [] },
      logLevel: 'warn',
    });
  });

  it('passes DATABASE_URL and REDIS_URL through for the cluster mode', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://chat@db.internal:5432/chat',
      REDIS_URL: 'redis://cache.internal:6379',
    });
    if (config.chat.mode !== 'embedded') throw new Error('expected embedded mode');
    expect(
      embeddedChatConfig({
        credentials,
        dataDir: config.dataDir,
        databaseUrl: config.chat.databaseUrl,
        redisUrl: config.chat.redisUrl,
        logLevel: config.logLevel,
      }),
    ).toMatchObject({
      db: { kind: 'postgres', url: 'postgres://chat@db.internal:5432/chat' },
      pubsub: { kind: 'redis', url: 'redis://cache.internal:6379' },
    });
  });

  it('lets the chat rate limits trust CHAT_TRUST_PROXY reverse proxies, and none by default', () => {
    const config = loadConfig({ CHAT_TRUST_PROXY: '1' });
    if (config.chat.mode !== 'embedded') throw new Error('expected embedded mode');
    const options = {
      credentials,
      dataDir: config.dataDir,
      databaseUrl: undefined,
      redisUrl: undefined,
      logLevel: config.logLevel,
    };

    expect(embeddedChatConfig({ ...options, trustProxy: config.chat.trustProxy })).toMatchObject({
      rateLimits: { trustProxy: 1 },
    });
    expect(embeddedChatConfig(options)).not.toHaveProperty('rateLimits');
  });

  it('puts PUBLIC_URL in the chat upload links when set, and leaves them to the request otherwise', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://daohuu.example' });
    if (config.chat.mode !== 'embedded') throw new Error('expected embedded mode');
    const options = {
      credentials,
      dataDir: config.dataDir,
      databaseUrl: undefined,
      redisUrl: undefined,
      logLevel: config.logLevel,
    };

    expect(embeddedChatConfig({ ...options, publicUrl: config.chat.publicUrl })).toMatchObject({
      http: { publicBaseURL: 'https://daohuu.example/chat' },
    });
    const unset = loadConfig({});
    if (unset.chat.mode !== 'embedded') throw new Error('expected embedded mode');
    expect(embeddedChatConfig({ ...options, publicUrl: unset.chat.publicUrl })).not.toHaveProperty(
      'http',
    );
  });
});
