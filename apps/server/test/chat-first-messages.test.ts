import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { LAST_CHANNEL_COOKIE, lastChannelCookieValue } from '@daohuu/domain';
import type { FastifyInstance } from 'fastify';
import type { StreamChat } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatAdmin, chatToken, listeningApp, storedChatCredentials } from './chat-harness.ts';
import { fakeWebDist, signedUpUser } from './harness.ts';

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
// What a message may hold that must stay text: markup, quotes, and String.replace's own patterns.
const HOSTILE_TEXT = `<img src=x onerror="alert(1)"> & 'q' $& $' $\``;

let app: FastifyInstance;
let admin: StreamChat;
let close: () => Promise<void>;
let dir: string;
const people: Record<'lam' | 'van' | 'outsider', { cookie: string; id: string }> = {
  lam: { cookie: '', id: '' },
  van: { cookie: '', id: '' },
  outsider: { cookie: '', id: '' },
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'daohuu-first-messages-'));
  const dist = fakeWebDist(dir);
  writeFileSync(
    join(dist, 'chat.html'),
    '<!doctype html><title>Đạo Hữu</title><body><div id="root"></div></body>',
  );
  const { config, chatURL, ...started } = await listeningApp({ WEB_DIST: dist });
  ({ app, close } = started);
  const { apiKey, apiSecret } = storedChatCredentials(config.dataDir);
  admin = chatAdmin(apiKey, apiSecret, chatURL);
  for (const name of Object.keys(people) as (keyof typeof people)[]) {
    const { cookie } = await signedUpUser(app);
    people[name] = { cookie, id: (await chatToken(app, cookie)).userId };
  }
  await admin
    .channel('sect', 'quang-truong')
    .sendMessage({ text: HOSTILE_TEXT, user_id: people.lam.id });
  const secret = admin.channel('messaging', 'bi-mat', {
    members: [people.lam.id, people.van.id],
    created_by_id: people.lam.id,
  } as never);
  await secret.create();
  await secret.sendMessage({ text: 'Chỉ hai ta biết', user_id: people.van.id });
});

afterAll(async () => {
  await close();
  rmSync(dir, { recursive: true, force: true });
});

function page(url: string, cookie?: string) {
  return app.inject({ method: 'GET', url, headers: cookie ? { ...HTML, cookie } : HTML });
}

describe('the chat page the server writes with its first messages', () => {
  it('gives a guest the first public channel’s latest messages, every text escaped, never stored by a cache', async () => {
    const response = await page('/chat');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.body).toContain('data-early-messages="sect:quang-truong"');
    expect(response.body).toContain('data-default-channel=""');
    expect(response.body).toContain(
      '&lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; &#39;q&#39; $&amp; $&#39; $`',
    );
    expect(response.body).not.toContain('<img src=x');
    // The drawing comes right after the app's root, once.
    expect(response.body.split('<div id="root"></div><div id="dh-early-messages"')).toHaveLength(2);
  });

  it('opens an old sect link on the sect channel, as a channel the address named', async () => {
    const response = await page('/chat/livestream/quang-truong');
    expect(response.body).toContain('data-early-messages="sect:quang-truong"');
    expect(response.body).not.toContain('data-default-channel');
  });

  it('shows a private channel to its members only', async () => {
    const member = await page('/chat/messaging/bi-mat', people.lam.cookie);
    expect(member.body).toContain('data-early-messages="messaging:bi-mat"');
    expect(member.body).toContain('Chỉ hai ta biết');
    for (const cookie of [people.outsider.cookie, undefined]) {
      const other = await page('/chat/messaging/bi-mat', cookie);
      expect(other.statusCode).toBe(200);
      expect(other.body).not.toContain('Chỉ hai ta biết');
      expect(other.body).not.toContain('data-early-messages');
      expect(other.headers['cache-control']).toBe('no-cache');
    }
  });

  it('never creates the channel a page names', async () => {
    const response = await page('/chat/messaging/chua-co', people.lam.cookie);
    expect(response.body).not.toContain('data-early-messages');
    const found = await admin.queryChannels({ cid: 'messaging:chua-co' }, {}, { limit: 1 });
    expect(found).toHaveLength(0);
  });

  it('opens /chat on the channel the viewer last had open, and ignores a cookie that is not theirs', async () => {
    const kept = `${LAST_CHANNEL_COOKIE}=${lastChannelCookieValue(people.van.id, 'messaging:bi-mat')}`;
    const own = await page('/chat', `${people.van.cookie}; ${kept}`);
    expect(own.body).toContain('data-early-messages="messaging:bi-mat"');
    expect(own.body).toContain('data-default-channel=""');
    const borrowed = await page('/chat', `${people.outsider.cookie}; ${kept}`);
    expect(borrowed.body).toContain('data-early-messages="sect:quang-truong"');
    expect(borrowed.body).not.toContain('Chỉ hai ta biết');
    // Nobody signed in: the cookie alone names no one.
    const anonymous = await page('/chat', kept);
    expect(anonymous.body).toContain('data-early-messages="sect:quang-truong"');
    expect(anonymous.body).not.toContain('Chỉ hai ta biết');
  });

  it('stops reading for a viewer who reloads past thirty pages a minute, and only for them', async () => {
    const { cookie } = await signedUpUser(app);
    await chatToken(app, cookie);
    // The viewer's minute starts at their first page.
    let plainAfter = 0;
    for (let count = 1; count <= 40 && plainAfter === 0; count += 1) {
      const response = await page('/chat/sect/quang-truong', cookie);
      expect(response.statusCode).toBe(200);
      if (!response.body.includes('data-early-messages')) plainAfter = count;
    }
    expect(plainAfter).toBe(31);
    const other = await page('/chat/sect/quang-truong', people.lam.cookie);
    expect(other.body).toContain('data-early-messages="sect:quang-truong"');
  });

  it('compresses the written page for browsers that accept it', async () => {
    for (const [encoding, decompress] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const response = await app.inject({
        method: 'GET',
        url: '/chat/livestream/quang-truong',
        headers: { ...HTML, 'accept-encoding': `${encoding}, deflate` },
      });
      expect(response.headers['content-encoding']).toBe(encoding);
      expect(response.headers.vary).toContain('accept-encoding');
      expect(decompress(response.rawPayload).toString('utf8')).toContain(
        'data-early-messages="sect:quang-truong"',
      );
    }
  });

  it('sends the plain page for a HEAD request and for any page outside the chat', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/chat', headers: HTML });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-cache');
    const home = await page('/cultivation');
    expect(home.body).not.toContain('data-early-messages');
    expect(home.headers['cache-control']).toBe('no-cache');
  });
});
