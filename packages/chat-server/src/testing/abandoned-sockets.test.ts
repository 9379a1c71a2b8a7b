import { createServer, type Server } from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { sinkErrorsOfAbandonedSockets } from './abandoned-sockets.ts';

describe('client websockets abandoned by their owner', () => {
  let server: Server;
  let url: string;
  const held: Socket[] = [];

  beforeEach(async () => {
    sinkErrorsOfAbandonedSockets();
    // Accepts the upgrade request and never answers it, so a client stays in its opening handshake.
    server = createServer();
    server.on('upgrade', (_request, socket: Socket) => void held.push(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/connect`;
  });

  afterEach(async () => {
    for (const socket of held.splice(0)) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('closes without an uncaught error when stripped of its listeners during the handshake, as stream-chat does', async () => {
    const socket = new WebSocket(url);
    socket.onerror = () => {};
    await new Promise((resolve) => server.once('upgrade', resolve));
    socket.removeAllListeners();
    expect(socket.readyState).toBe(WebSocket.CONNECTING);
    // Without the sink, ws raises "WebSocket was closed before the connection was established" with nobody
    // listening, and Vitest fails the run on the uncaught exception.
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close();
    await closed;
    expect(socket.readyState).toBe(WebSocket.CLOSED);
  });

  it('leaves the errors of a socket that still has an owner to that owner', async () => {
    const socket = new WebSocket(url);
    const seen: string[] = [];
    socket.on('error', (error) => seen.push(error.message));
    await new Promise((resolve) => server.once('upgrade', resolve));
    socket.removeAllListeners('message');
    const closed = new Promise((resolve) => socket.once('close', resolve));
    socket.close();
    await closed;
    expect(seen).toEqual(['WebSocket was closed before the connection was established']);
    expect(socket.listenerCount('error')).toBe(1);
  });

  it('gives a stripped socket exactly one sink, however often it is stripped', () => {
    const socket = new WebSocket(url);
    socket.removeAllListeners();
    socket.removeAllListeners('error');
    socket.removeAllListeners();
    expect(socket.listenerCount('error')).toBe(1);
    expect(() => socket.emit('error', new Error('after its owner left'))).not.toThrow();
    socket.terminate();
  });
});
