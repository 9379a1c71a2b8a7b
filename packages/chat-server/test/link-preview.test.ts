import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectUser,
  newClient,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './contract/helpers.ts';

const PAGE = `<!doctype html><html><head>
<meta property="og:title" content="Tàng Kinh Các">
<meta property="og:description" content="Nơi cất giữ bí kíp tu luyện">
<meta property="og:image" content="/anh/bia.png">
<meta property="og:site_name" content="Đạo Hữu">
<title>ignored</title></head><body>hello</body></html>`;

/** A local web server standing in for the internet: pages, redirects, a huge page and a page that never answers. */
async function startPageServer(redirectTarget: () => string) {
  const sockets = new Set<Socket>();
  /** Every path asked for, in order: what the chat server fetched. */
  const requested: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = request.url ?? '/';
    requested.push(path);
    if (path === '/trang') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(PAGE);
    } else if (path === '/chuyen-huong') {
      response.writeHead(302, { location: redirectTarget() });
      response.end();
    } else if (path.startsWith('/vong/')) {
      const n = Number(path.slice(6));
      response.writeHead(302, { location: n > 0 ? `/vong/${n - 1}` : '/trang' });
      response.end();
    } else if (path === '/khong-lo') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(
        `<html><head><title>x</title></head><body>${'x'.repeat(2 * 1024 * 1024)}</body></html>`,
      );
    } else if (path === '/anh.png') {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(Buffer.alloc(3 * 1024 * 1024));
    } else if (path === '/im-lang') {
      // Never answers: the preview must give up on its own.
    } else {
      response.writeHead(404);
      response.end();
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requested,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('link previews with the real client', () => {
  let pages: Awaited<ReturnType<typeof startPageServer>>;
  let forbidden: Awaited<ReturnType<typeof startPageServer>>;

  beforeAll(async () => {
    forbidden = await startPageServer(() => '/trang');
    pages = await startPageServer(() => `${forbidden.origin}/trang`);
  });
  afterAll(async () => {
    await pages.close();
    await forbidden.close();
  });
  // Registered after the page servers, so the chat server starts once their ports are known.
  const env = useContractEnv(() => ({
    config: {
      linkPreview: {
        allowHosts: [`127.0.0.1:${pages.port}`, `trang.localhost:${pages.port}`],
        timeoutMs: 500,
      },
    },
  }));
  const connectAlice = () => connectUser(env(), uniqueId('alice'));

  it('answers GET /og with the attachment fields the composer reads', async () => {
    const alice = await connectAlice();
    const preview = await alice.enrichURL(`${pages.origin}/trang`);
    expect(preview).toMatchObject({
      og_scrape_url: `${pages.origin}/trang`,
      title_link: `${pages.origin}/trang`,
      title: 'Tàng Kinh Các',
      text: 'Nơi cất giữ bí kíp tu luyện',
      image_url: `${pages.origin}/anh/bia.png`,
      thumb_url: `${pages.origin}/anh/bia.png`,
      author_name: 'Đạo Hữu',
      type: 'article',
    });
  });

  it('refuses link previews to anonymous users', async () => {
    const anonymous = newClient(env());
    await anonymous.connectAnonymousUser();
    await expect(anonymous.enrichURL(`${pages.origin}/trang`)).rejects.toMatchObject({
      code: 17,
    });
  });

  it('previews a link straight to an image, however large, as that image', async () => {
    const alice = await connectAlice();
    await expect(alice.enrichURL(`${pages.origin}/anh.png`)).resolves.toMatchObject({
      type: 'image',
      og_scrape_url: `${pages.origin}/anh.png`,
      image_url: `${pages.origin}/anh.png`,
    });
  });

  it('follows a few redirects on an allowed host but refuses too many', async () => {
    const alice = await connectAlice();
    await expect(alice.enrichURL(`${pages.origin}/vong/2`)).resolves.toMatchObject({
      title: 'Tàng Kinh Các',
    });
    await expect(alice.enrichURL(`${pages.origin}/vong/5`)).rejects.toMatchObject({
      code: 4,
      message: expect.stringContaining('too many redirects'),
    });
  });

  it('enriches a sent message with a link unless the client says skip_enrich_url', async () => {
    const aliceId = uniqueId('alice');
    const alice = await connectUser(env(), aliceId);
    const channel = await watchChannel(alice, 'messaging', uniqueId('dao-trang'), {
      members: [aliceId],
    });
    // A name with a top-level domain, as the client requires; *.localhost resolves to loopback when allowlisted.
    const named = `http://trang.localhost:${pages.port}/trang`;
    const enriched = await channel.sendMessage({ text: `Xem ${named}, đạo hữu!` });
    expect(enriched.message.attachments).toEqual([
      expect.objectContaining({ og_scrape_url: named, title: 'Tàng Kinh Các' }),
    ]);
    const ip = await channel.sendMessage({ text: `Xem ${pages.origin}/trang nhé` });
    expect(ip.message.attachments).toEqual([
      expect.objectContaining({ og_scrape_url: `${pages.origin}/trang` }),
    ]);
    const skipped = await channel.sendMessage(
      { text: `Xem ${pages.origin}/trang nhé` },
      { skip_enrich_url: true },
    );
    expect(skipped.message.attachments).toEqual([]);
  });

  it('fetches nothing for a message refused for a block, its shared location or its poll', async () => {
    const { admin } = env();
    const aliceId = uniqueId('alice');
    const alice = await connectUser(env(), aliceId);
    const blockerId = uniqueId('chan');
    await admin.upsertUsers([{ id: blockerId }]);
    const direct = alice.channel('messaging', { members: [aliceId, blockerId] } as never);
    await direct.watch();
    await admin.blockUser(aliceId, blockerId);
    const link = (name: string) => `/tu-choi/${name}-${randomUUID()}`;
    const refused = [link('chan'), link('vi-tri'), link('binh-chon')];
    await expect(
      direct.sendMessage({ text: `Xem ${pages.origin}${refused[0]}` }),
    ).rejects.toMatchObject({ code: 17 });

    const channel = await watchChannel(alice, 'messaging', uniqueId('dao-trang'), {
      members: [aliceId],
    });
    await expect(
      channel.sendMessage({
        text: `Xem ${pages.origin}${refused[1]}`,
        shared_location: { latitude: 21.03, longitude: 105.85 } as never,
      }),
    ).rejects.toMatchObject({ code: 4 });
    await expect(
      channel.sendMessage({ text: `Xem ${pages.origin}${refused[2]}`, poll_id: randomUUID() }),
    ).rejects.toMatchObject({ code: 4 });

    // The same link in a message that is accepted is fetched: the log does record what the server asks for.
    const accepted = link('nhan');
    await channel.sendMessage({ text: `Xem ${pages.origin}${accepted}` });
    expect(pages.requested).toContain(accepted);
    for (const path of refused) expect(pages.requested).not.toContain(path);
  });

  it('refuses private, loopback and metadata addresses, directly or through a redirect', async () => {
    const alice = await connectAlice();
    for (const url of [
      `${forbidden.origin}/trang`,
      `http://localhost:${forbidden.port}/trang`,
      `http://trang.localhost:${forbidden.port}/trang`,
      `http://[::ffff:127.0.0.1]:${forbidden.port}/trang`,
      'http://10.0.0.8/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      `${pages.origin}/chuyen-huong`,
    ]) {
      await expect(alice.enrichURL(url), url).rejects.toMatchObject({
        code: 4,
        message: expect.stringContaining('not allowed'),
      });
    }
  });

  it('refuses other schemes, huge pages and pages that never answer, cleanly', async () => {
    const alice = await connectAlice();
    for (const url of ['ftp://dao-huu.vn/', 'javascript:alert(1)', 'không phải url']) {
      await expect(alice.enrichURL(url), url).rejects.toMatchObject({ code: 4 });
    }
    await expect(alice.enrichURL(`${pages.origin}/khong-lo`)).rejects.toMatchObject({
      code: 4,
      message: expect.stringContaining('too large'),
    });
    await expect(alice.enrichURL(`${pages.origin}/im-lang`)).rejects.toMatchObject({
      code: 4,
      message: expect.stringContaining('in time'),
    });
    // The server is still healthy afterwards.
    await expect(alice.enrichURL(`${pages.origin}/trang`)).resolves.toMatchObject({
      title: 'Tàng Kinh Các',
    });
  });
});
