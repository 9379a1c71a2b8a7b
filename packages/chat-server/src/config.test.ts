import { describe, expect, it } from 'vitest';
import { DEV_APP, loadConfig, parseConfig } from './config.ts';

describe('loadConfig', () => {
  it('runs with nothing configured: a development app, SQLite and memory pub/sub on port 3300', () => {
    const config = loadConfig({});
    expect(config.apps).toEqual([
      expect.objectContaining({ id: DEV_APP.key, key: DEV_APP.key, secret: DEV_APP.secret }),
    ]);
    expect(config.db).toEqual({ kind: 'sqlite', file: './data/chat.sqlite' });
    expect(config.pubsub).toEqual({ kind: 'memory' });
    expect(config.http.port).toBe(3300);
  });

  it('takes the app from STREAM_API_KEY and STREAM_API_SECRET', () => {
    const config = loadConfig({ STREAM_API_KEY: 'k', STREAM_API_SECRET: 's' });
    expect(config.apps[0]).toMatchObject({
      id: 'k',
      key: 'k',
      secret: 's',
      disableAuthChecks: false,
    });
  });

  it('takes several apps from CHAT_APPS', () => {
    const config = loadConfig({
      CHAT_APPS: JSON.stringify([
        { key: 'a', secret: 'x' },
        { id: 'b-app', key: 'b', secret: 'y' },
      ]),
    });
    expect(config.apps.map((app) => app.id)).toEqual(['a', 'b-app']);
  });

  it('switches to PostgreSQL and Redis from their URLs', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@h:5432/db',
      REDIS_URL: 'redis://h:6379',
    });
    expect(config.db).toMatchObject({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(config.pubsub).toEqual({
      kind: 'redis',
      url: 'redis://h:6379',
      keyPrefix: 'chat:',
      presenceTtlMs: 20_000,
    });
  });

  it('limits rates and keeps guests off unless told otherwise', () => {
    const config = loadConfig({});
    expect(config.rateLimits).toMatchObject({ enabled: true, windowMs: 60_000, trustProxy: 0 });
    expect(config.apps[0]?.guests).toEqual({ enabled: false, tokenTtlSeconds: 86_400 });

    const tuned = loadConfig({ CHAT_RATE_LIMITS: 'false', CHAT_TRUST_PROXY: '2' });
    expect(tuned.rateLimits).toMatchObject({ enabled: false, trustProxy: 2 });
    expect(() => loadConfig({ CHAT_TRUST_PROXY: '11' })).toThrow(/rateLimits\.trustProxy/);
  });

  it('bounds database waits and the shutdown grace, with defaults and from the environment', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' })).toMatchObject({
      db: { connectTimeoutMs: 2000, statementTimeoutMs: 5000, applicationName: 'daohuu-chat' },
      shutdownGraceMs: 10_000,
    });
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@h:5432/db',
      CHAT_DB_CONNECT_TIMEOUT_MS: '500',
      CHAT_DB_STATEMENT_TIMEOUT_MS: '0',
      CHAT_SHUTDOWN_GRACE_MS: '3000',
    });
    expect(config).toMatchObject({
      db: { connectTimeoutMs: 500, statementTimeoutMs: 0 },
      shutdownGraceMs: 3000,
    });
    expect(() => loadConfig({ CHAT_SHUTDOWN_GRACE_MS: '-1' })).toThrow(/shutdownGraceMs/);
  });

  it('refuses port 3030, which the client rewrites to 8800 for the websocket', () => {
    expect(() => loadConfig({ CHAT_PORT: '3030' })).toThrow(/3030/);
  });

  it('lists every bad key at once', () => {
    expect(() => parseConfig({ apps: [], http: { port: -1 } })).toThrow(/apps[\s\S]*http\.port/);
    expect(() => loadConfig({ CHAT_APPS: '{' })).toThrow(/CHAT_APPS/);
  });
});
