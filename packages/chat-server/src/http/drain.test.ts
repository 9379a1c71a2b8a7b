import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { trackRequests, type HttpDrain } from './drain.ts';

const servers: Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.closeAllConnections();
});

interface Listening {
  port: number;
  /** What happened on the server side, in order ('answered' once a response is written). */
  order: string[];
  drain: HttpDrain;
  /** Resolves once the server has read the first bytes of a connection. */
  firstBytes: Promise<void>;
}

async function listen(): Promise<Listening> {
  const server = createServer();
  servers.push(server);
  // Tracked before the handler, as the entry points do (the tracker sees each request first).
  const drain = trackRequests(server);
  const order: string[] = [];
  server.on('request', (_request, response) => {
    response.once('finish', () => order.push('answered'));
    response.end('xong');
  });
  const firstBytes = new Promise<void>((resolve) =>
    server.once('connection', (socket) => socket.once('data', () => resolve())),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, order, drain, firstBytes };
}

describe('draining HTTP requests before a shutdown', () => {
  it('waits for a request whose head had not fully arrived when the drain began, and answers it', async () => {
    const { port, order, drain, firstBytes } = await listen();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('POST /message HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    await firstBytes;

    const drained = drain.drain(5_000).then((cutOff) => {
      order.push('drained');
      return cutOff;
    });
    socket.write('Content-Length: 0\r\n\r\n');
    await closed;

    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(await drained).toBe(0);
    expect(order).toEqual(['answered', 'drained']);
  });

  it('resolves at once when no connection is open', async () => {
    const { drain } = await listen();
    await expect(drain.drain(5_000)).resolves.toBe(0);
  });
});
