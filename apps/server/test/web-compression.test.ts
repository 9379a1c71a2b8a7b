import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { precompressDirectory } from '../../web/precompress-plugin.ts';
import { fakeWebDist, startApp, tempDir, testConfig } from './harness.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

/** Text that compresses well and is large enough to be worth it, like a real chunk. */
const SCRIPT = `export const tuVi = [${Array.from({ length: 400 }, (_, i) => `"Luyện Khí tầng ${i}"`).join(',')}];\n`;
const PAGE = `<!doctype html><html lang="vi"><head><title>Đạo Hữu</title>${'<link rel="modulepreload" href="/assets/chat-screen-abc.js">'.repeat(40)}</head><body><div id="root"></div></body></html>`;

/** A build like the real one: a large chunk, a tiny one, the chat page, an image; then the build's own compression. */
async function compressedBuild() {
  const dir = tempDir();
  const dist = fakeWebDist(dir);
  writeFileSync(join(dist, 'assets', 'chat-screen-abc.js'), SCRIPT);
  writeFileSync(join(dist, 'chat.html'), PAGE);
  writeFileSync(join(dist, 'assets', 'realm-abc.png'), Buffer.alloc(4096, 7));
  await precompressDirectory(dist);
  return { dir, dist };
}

async function appWithCompressedBuild() {
  const { dir, dist } = await compressedBuild();
  return startApp(testConfig({ WEB_DIST: dist }, dir));
}

describe('the web build sent compressed', () => {
  it('writes brotli and gzip copies of large text files only, each decompressing to the original', async () => {
    const { dist } = await compressedBuild();
    const chunk = join(dist, 'assets', 'chat-screen-abc.js');
    expect(brotliDecompressSync(readFileSync(`${chunk}.br`)).toString()).toBe(SCRIPT);
    expect(gunzipSync(readFileSync(`${chunk}.gz`)).toString()).toBe(SCRIPT);
    expect(existsSync(join(dist, 'chat.html.br'))).toBe(true);
    // Too small to gain anything, or not text.
    expect(existsSync(join(dist, 'assets', 'index-abc123.js.br'))).toBe(false);
    expect(existsSync(join(dist, 'assets', 'realm-abc.png.br'))).toBe(false);
  });

  it('sends a chunk as brotli to a browser that accepts it, still immutable and varying on the encoding', async () => {
    const app = await appWithCompressedBuild();
    const response = await app.inject({
      method: 'GET',
      url: '/assets/chat-screen-abc.js',
      headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(response.headers.vary)).toMatch(/accept-encoding/i);
    expect(response.rawPayload.length).toBeLessThan(SCRIPT.length / 4);
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(SCRIPT);
  });

  it('sends gzip to a client that accepts only gzip, and the file as it is to one that accepts neither', async () => {
    const app = await appWithCompressedBuild();
    const gzipped = await app.inject({
      method: 'GET',
      url: '/assets/chat-screen-abc.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(SCRIPT);
    const plain = await app.inject({
      method: 'GET',
      url: '/assets/chat-screen-abc.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(String(plain.headers.vary)).toMatch(/accept-encoding/i);
    expect(plain.body).toBe(SCRIPT);
  });

  it('sends the chat page compressed and uncached, as the page it always was', async () => {
    const app = await appWithCompressedBuild();
    const response = await app.inject({
      method: 'GET',
      url: '/chat/livestream/quang-truong',
      headers: { ...HTML, 'accept-encoding': 'br' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['content-type']).toMatch(/text\/html/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(PAGE);
  });
});
