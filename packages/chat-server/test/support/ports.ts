import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/*
 * Ports for services a test stops and starts again on the same port (Redis, PostgreSQL). A port from `listen(0)` is
 * in the kernel's ephemeral range, and while the service is down two things can happen on such a port:
 * - a client that keeps reconnecting can be given that very port as its own source port and connect to itself
 *   (TCP simultaneous open): ioredis then reads its own commands back as replies, believes it is connected, and the
 *   test sees a recovery and a second outage that never happened;
 * - any other process binding port 0 (the other test worker's servers) can be given the port.
 * Below the ephemeral range neither can happen: the kernel hands out neither as a source port nor for `listen(0)`.
 */

const FALLBACK_EPHEMERAL_LOW = 32_768;
const LOWEST = 10_000;
const ATTEMPTS = 50;

function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/);
    const value = Number(low);
    return Number.isInteger(value) && value > LOWEST + 1000 ? value : FALLBACK_EPHEMERAL_LOW;
  } catch {
    return FALLBACK_EPHEMERAL_LOW;
  }
}

function bindable(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A free port on 127.0.0.1 below the ephemeral range, for a service that will be restarted on it. */
export async function restartablePort(): Promise<number> {
  const high = ephemeralLow() - 1;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (high - LOWEST));
    if (await bindable(port)) return port;
  }
  throw new Error(`no free port between ${LOWEST} and ${high}`);
}
