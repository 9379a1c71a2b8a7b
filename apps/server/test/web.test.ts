import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeWebDist, startApp, tempDir, testConfig } from './harness.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

async function appWithWebBuild() {
  const dir = tempDir();
  const dist = fakeWebDist(dir);
  // A file beside the build that must never be reachable.
  writeFileSync(join(dir, 'secret.txt'), 'TOP-SECRET-CONTENT');
  return startApp(testConfig({ WEB_DIST: dist }, dir));
}

/** A raw GET over a socket, so the path reaches the server exactly as written (no URL normalisation). */
function rawGet(port: number, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      { host: '127.0.0.1', port, path, method: 'GET', headers: HTML },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end();
  });
}

describe('web app serving', () => {
  it('serves hashed assets as immutable for a year', async () => {
    const app = await appWithWebBuild();
    const response = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.body).toBe('console.log("đạo hữu")');
  });

  it('serves index.html at / with no-cache', async () => {
    const app = await appWithWebBuild();
    const response = await app.inject({ method: 'GET', url: '/', headers: HTML });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<div id="root">');
  });

  it('serves files outside assets/ with no-cache', async () => {
    const app = await appWithWebBuild();
    const response = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
  });

  it.each([
    '/canh-gioi',
    '/chat/messaging/tong-mon',
    '/quan-tri/chien-dich',
    '/trang-khong-ton-tai',
  ])('answers the page %s with index.html (history fallback)', async (url) => {
    const app = await appWithWebBuild();
    const response = await app.inject({ method: 'GET', url, headers: HTML });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<div id="root">');
  });

  it('answers a missing file that is not a page request with 404 JSON', async () => {
    const app = await appWithWebBuild();
    const response = await app.inject({
      method: 'GET',
      url: '/assets/missing.js',
      headers: { accept: '*/*' },
    });
    expect(response.statusCode).toBe(404);
    expect(response.json().error.code).toBe('NOT_FOUND');
  });

  it('answers an unknown /api/* path with 404 JSON, even for a browser', async () => {
    const app = await appWithWebBuild();
    for (const method of ['GET', 'POST'] as const) {
      const response = await app.inject({ method, url: '/api/nope', headers: HTML });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        error: { code: 'NOT_FOUND', message: 'Không tìm thấy địa chỉ này.' },
      });
    }
  });

  it.each([
    '/../secret.txt',
    '/..%2fsecret.txt',
    '/%2e%2e/secret.txt',
    '/assets/../../secret.txt',
    '/assets/..%2f..%2fsecret.txt',
    '/%2e%2e%2fsecret.txt',
    '//secret.txt',
  ])('never serves a file outside the build for %s', async (path) => {
    const app = await appWithWebBuild();
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const response = await rawGet(port, path);
    expect(response.body).not.toContain('TOP-SECRET-CONTENT');
    expect(response.status).toBeLessThan(500);
  });

  it('answers / with a short page saying the web app is not built when WEB_DIST has no index.html', async () => {
    const app = await startApp(testConfig({ WEB_DIST: join(tempDir(), 'missing-dist') }));
    for (const url of ['/', '/canh-gioi']) {
      const response = await app.inject({ method: 'GET', url, headers: HTML });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/text\/html/);
      expect(response.body).toContain('chưa được build');
    }
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });
});

describe('GET /api/health', () => {
  it('answers ok', async () => {
    const app = await startApp();
    const response = await app.inject({ method: 'GET', url: '/api/health' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', uptimeSeconds: expect.any(Number) });
  });
});
