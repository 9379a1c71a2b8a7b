import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectUser, expectStreamError, uniqueId, useContractEnv } from '../contract/helpers.ts';

/** A page on 127.0.0.1 standing in for an internal service; it counts every request that reaches it. */
async function startInternalService(redirectTo?: () => string) {
  const sockets = new Set<Socket>();
  let hits = 0;
  const server: Server = createServer((_request, response) => {
    hits += 1;
    if (redirectTo) {
      response.writeHead(302, { location: redirectTo() });
      response.end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' });
    response.end('<html><head><title>Bí mật nội bộ</title></head></html>');
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hits: () => hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

describe('#19 the link-preview guard sees through every spelling of a private address', () => {
  let internal: Awaited<ReturnType<typeof startInternalService>>;
  let bouncer: Awaited<ReturnType<typeof startInternalService>>;
  let redirectTarget = '';
  // Filled in before the chat server starts (hooks run in order): only the bouncer is allowlisted.
  const linkPreview = { allowHosts: [] as string[], timeoutMs: 2000 };

  beforeAll(async () => {
    internal = await startInternalService();
    bouncer = await startInternalService(() => redirectTarget);
    linkPreview.allowHosts.push(`127.0.0.1:${bouncer.port}`);
  });
  afterAll(async () => {
    await internal?.close();
    await bouncer?.close();
  });
  const env = useContractEnv({ config: { linkPreview } });

  const spellings = (port: number) => [
    `http://127.0.0.1:${port}/`,
    `http://0x7f.1:${port}/`,
    `http://2130706433:${port}/`,
    `http://017700000001:${port}/`,
    `http://127.1:${port}/`,
    `http://127.0.0.1.:${port}/`,
    `http://[::1]:${port}/`,
    `http://[::ffff:127.0.0.1]:${port}/`,
    `http://[::ffff:7f00:1]:${port}/`,
    `http://[::7f00:1]:${port}/`,
    `http://[::127.0.0.1]:${port}/`,
    `http://[::ffff:0:7f00:1]:${port}/`,
    `http://[0:0:0:0:ffff:0:7f00:1]:${port}/`,
    `http://[64:ff9b::7f00:1]:${port}/`,
    `http://[2002:7f00:1::]:${port}/`,
    `http://localhost:${port}/`,
    `http://localhost.:${port}/`,
    `http://noi-bo.localhost:${port}/`,
  ];

  it('a user cannot preview a loopback page however its address is spelled', async () => {
    const client = await connectUser(env(), uniqueId('do-tham'));

    for (const url of spellings(internal.port)) {
      await expectStreamError(client.enrichURL(url), {
        code: 4,
        status: 400,
        message: /not allowed/,
      });
    }
    expect(internal.hits()).toBe(0);
  });

  it('a user cannot reach a loopback page through a redirect to any of those spellings', async () => {
    const client = await connectUser(env(), uniqueId('chuyen-huong'));
    const before = { bouncer: bouncer.hits(), internal: internal.hits() };

    for (const url of spellings(internal.port)) {
      redirectTarget = `${url}chuyen-tiep`;
      await expectStreamError(
        client.enrichURL(`http://127.0.0.1:${bouncer.port}/${uniqueId('p')}`),
        {
          code: 4,
          status: 400,
          message: /not allowed/,
        },
      );
    }
    expect(bouncer.hits() - before.bouncer).toBe(spellings(internal.port).length);
    expect(internal.hits()).toBe(before.internal);
  });
});
