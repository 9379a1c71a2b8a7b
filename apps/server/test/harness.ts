import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterEach } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Config } from '../src/config.ts';

/** The origin tests send, as a browser on PUBLIC_URL would. */
export const ORIGIN = 'http://localhost:3000';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'daohuu-server-test-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * One app for a whole file (in `beforeAll`), for suites whose tests each work on their own users; `close` removes
 * its directory too.
 */
export async function startSharedApp(env: Record<string, string> = {}): Promise<{
  app: FastifyInstance;
  close: () => Promise<void>;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'daohuu-server-test-'));
  const app = await buildApp(testConfig(env, dir));
  return {
    app,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A minimal web build: index.html, a hashed asset, a favicon. */
export function fakeWebDist(root: string): string {
  const dist = join(root, 'dist');
  mkdirSync(join(dist, 'assets'), { recursive: true });
  writeFileSync(
    join(dist, 'index.html'),
    '<!doctype html><title>Đạo Hữu</title><div id="root"></div>',
  );
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("đạo hữu")');
  writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dist;
}

/** Config for a test: a temp DATA_DIR, no demo seed, silent logs, then `env` on top (as environment strings). */
export function testConfig(env: Record<string, string> = {}, dir?: string): Config {
  dir ??= tempDir();
  return loadConfig({
    DATA_DIR: join(dir, 'data'),
    WEB_DIST: join(dir, 'no-web-build'),
    PUBLIC_URL: ORIGIN,
    SEED_DEMO: 'false',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/** Builds the real app on `config`; closed after the test. */
export async function startApp(config: Config = testConfig()): Promise<FastifyInstance> {
  const app = await buildApp(config);
  cleanups.push(() => app.close());
  return app;
}

/** The `name=value` pairs of every Set-Cookie, ready for a Cookie header. */
export function cookieFrom(response: LightMyRequestResponse): string {
  const header = response.headers['set-cookie'];
  const list = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return list.map((cookie) => cookie.split(';', 1)[0]).join('; ');
}

export interface Credentials {
  email: string;
  password: string;
  name?: string;
}

let counter = 0;
/** Distinct, valid sign-up data. */
export function newCredentials(): Required<Credentials> {
  counter += 1;
  return {
    email: `dao.huu.${counter}.${Date.now()}@example.vn`,
    password: 'mat-khau-dai',
    name: `Đạo Hữu ${counter}`,
  };
}

export function signUp(
  app: FastifyInstance,
  body: Record<string, unknown>,
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    headers: { origin: ORIGIN },
    payload: body,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

export function signIn(
  app: FastifyInstance,
  body: Record<string, unknown>,
  remoteAddress?: string,
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url: '/api/auth/sign-in/email',
    headers: { origin: ORIGIN },
    payload: body,
    ...(remoteAddress ? { remoteAddress } : {}),
  });
}

/** Signs up a new user and returns their session cookie. */
export async function signedUpUser(
  app: FastifyInstance,
): Promise<{ cookie: string; credentials: Required<Credentials> }> {
  const credentials = newCredentials();
  const response = await signUp(app, credentials);
  if (response.statusCode !== 200)
    throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return { cookie: cookieFrom(response), credentials };
}

/** Signs in and returns the session cookie. */
export async function signedInCookie(
  app: FastifyInstance,
  email: string,
  password: string,
): Promise<string> {
  const response = await signIn(app, { email, password });
  if (response.statusCode !== 200)
    throw new Error(`sign-in failed: ${response.statusCode} ${response.body}`);
  return cookieFrom(response);
}

/** A request to our API the way the web app makes it: JSON body, same-origin Origin, the session cookie. */
export function apiRequest(
  app: FastifyInstance,
  method: 'GET' | 'PATCH' | 'POST' | 'DELETE',
  url: string,
  { cookie, body }: { cookie?: string; body?: unknown } = {},
): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (cookie) headers.cookie = cookie;
  if (method !== 'GET') headers.origin = ORIGIN;
  return app.inject({
    method,
    url,
    headers,
    ...(body === undefined ? {} : { payload: body as Record<string, unknown> }),
  });
}
