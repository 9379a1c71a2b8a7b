import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, DEFAULT_WEB_DIST, envSchema, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('gives every variable its documented default', () => {
    const config = loadConfig({}, '/srv/daohuu');
    expect(config).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: '/srv/daohuu/data',
      webDist: DEFAULT_WEB_DIST,
      publicUrl: 'http://localhost:3000',
      betterAuthSecret: undefined,
      seedDemo: true,
      logLevel: 'info',
      logFormat: 'auto',
      shutdownGraceMs: 10_000,
      backup: { dir: '/srv/daohuu/data/backups', intervalMs: 86_400_000, retain: 7 },
      nodeEnv: 'development',
      authRateLimit: {
        windowMs: 900_000,
        maxPerIp: 30,
        maxFailuresPerEmail: 5,
        maxFailuresPerAccount: 100,
      },
      apiRateLimit: { windowMs: 60_000, maxPerIp: 1200 },
      trustProxy: false,
      chat: {
        mode: 'embedded',
        credentials: undefined,
        databaseUrl: undefined,
        redisUrl: undefined,
        linkPreviewAllowHosts: [],
        trustProxy: 0,
        tokenTtlSeconds: 3600,
        requestTimeoutMs: 3000,
      },
    });
  });

  it('finds the web build beside this package, not in the working directory', () => {
    expect(DEFAULT_WEB_DIST.replaceAll('\\', '/')).toMatch(/apps\/web\/dist$/);
  });

  it('reads every variable', () => {
    const config = loadConfig(
      {
        PORT: '8080',
        HOST: '127.0.0.1',
        DATA_DIR: 'var/data',
        WEB_DIST: '/opt/web',
        PUBLIC_URL: 'https://daohuu.example/',
        BETTER_AUTH_SECRET: 's'.repeat(32),
        SEED_DEMO: 'false',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'json',
        SHUTDOWN_GRACE_MS: '2500',
        BACKUP_INTERVAL_HOURS: '6',
        BACKUP_RETAIN: '30',
        BACKUP_DIR: '/mnt/sao-luu',
        NODE_ENV: 'production',
        AUTH_RATE_LIMIT_WINDOW_SECONDS: '60',
        AUTH_RATE_LIMIT_MAX_PER_IP: '0',
        AUTH_RATE_LIMIT_MAX_FAILURES_PER_EMAIL: '3',
        AUTH_RATE_LIMIT_ACCOUNT_FAILURES: '20',
        API_RATE_LIMIT_WINDOW_SECONDS: '30',
        API_RATE_LIMIT_MAX_PER_IP: '500',
        TRUST_PROXY: 'loopback, 10.0.0.0/8',
        CHAT_MODE: 'embedded',
        STREAM_API_KEY: 'khoa-cong-khai',
        STREAM_API_SECRET: 'bi-mat-cua-ung-dung',
        CHAT_TOKEN_TTL_SECONDS: '60',
        CHAT_REQUEST_TIMEOUT_MS: '500',
        DATABASE_URL: 'postgres://chat@db.internal:5432/chat',
        REDIS_URL: 'redis://cache.internal:6379',
        CHAT_LINK_PREVIEW_ALLOW_HOSTS: 'trang.localhost:3199,127.0.0.1:80',
        CHAT_TRUST_PROXY: '1',
      },
      '/srv/daohuu',
    );
    expect(config).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataDir: '/srv/daohuu/var/data',
      webDist: '/opt/web',
      publicUrl: 'https://daohuu.example',
      betterAuthSecret: 's'.repeat(32),
      seedDemo: false,
      logLevel: 'warn',
      logFormat: 'json',
      shutdownGraceMs: 2500,
      backup: { dir: '/mnt/sao-luu', intervalMs: 21_600_000, retain: 30 },
      nodeEnv: 'production',
      authRateLimit: {
        windowMs: 60_000,
        maxPerIp: 0,
        maxFailuresPerEmail: 3,
        maxFailuresPerAccount: 20,
      },
      apiRateLimit: { windowMs: 30_000, maxPerIp: 500 },
      trustProxy: ['loopback', '10.0.0.0/8'],
      chat: {
        mode: 'embedded',
        credentials: { apiKey: 'khoa-cong-khai', apiSecret: 'bi-mat-cua-ung-dung' },
        databaseUrl: 'postgres://chat@db.internal:5432/chat',
        redisUrl: 'redis://cache.internal:6379',
        linkPreviewAllowHosts: ['trang.localhost:3199', '127.0.0.1:80'],
        trustProxy: 1,
        publicUrl: 'https://daohuu.example',
        tokenTtlSeconds: 60,
        requestTimeoutMs: 500,
      },
    });
  });

  it('derives PUBLIC_URL from PORT when it is not set', () => {
    expect(loadConfig({ PORT: '4000' }).publicUrl).toBe('http://localhost:4000');
  });

  it.each([
    ['false', false],
    ['0', false],
    ['no', false],
    ['true', true],
    ['1', true],
    ['yes', true],
  ])('reads SEED_DEMO=%s as %s', (value, expected) => {
    expect(loadConfig({ SEED_DEMO: value }).seedDemo).toBe(expected);
  });

  it.each([
    ['false', false],
    ['true', true],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['::1,192.168.0.0/16', ['::1', '192.168.0.0/16']],
  ])('reads TRUST_PROXY=%s as %j', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it.each(['yes please', 'proxy.example', '127.0.0.1;rm'])('refuses TRUST_PROXY=%s', (value) => {
    expect(() => loadConfig({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', SEED_DEMO: ' ' }).port).toBe(3000);
  });

  it('lists every bad variable at once', () => {
    let caught: unknown;
    try {
      loadConfig({
        PORT: 'abc',
        PUBLIC_URL: 'ftp://daohuu.example',
        SEED_DEMO: 'maybe',
        LOG_LEVEL: 'loud',
        BETTER_AUTH_SECRET: 'short-secret',
        AUTH_RATE_LIMIT_WINDOW_SECONDS: '0',
      });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    const problems = (caught as ConfigError).problems;
    expect(problems.map((problem) => problem.split(':', 1)[0]).sort()).toEqual([
      'AUTH_RATE_LIMIT_WINDOW_SECONDS',
      'BETTER_AUTH_SECRET',
      'LOG_LEVEL',
      'PORT',
      'PUBLIC_URL',
      'SEED_DEMO',
    ]);
    expect(problems.find((problem) => problem.startsWith('PORT'))).toContain('"abc"');
    // The message names every problem, and never echoes the secret.
    expect((caught as ConfigError).message).toContain('SEED_DEMO');
    expect((caught as ConfigError).message).not.toContain('short-secret');
  });

  it.each([
    'http://daohuu.example/app',
    'https://daohuu.example?x=1',
    'daohuu.example',
    'javascript:alert(1)',
  ])('refuses PUBLIC_URL=%s', (value) => {
    expect(() => loadConfig({ PUBLIC_URL: value })).toThrow(ConfigError);
  });

  it('refuses a port out of range', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
  });
});

describe('docs/config.md', () => {
  it('documents every environment variable the server reads', () => {
    const docs = readFileSync(join(import.meta.dirname, '../../../docs/config.md'), 'utf8');
    for (const key of Object.keys(envSchema.shape)) expect(docs, key).toContain(`\`${key}\``);
  });
});
