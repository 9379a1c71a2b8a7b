import { randomUUID } from 'node:crypto';
import { Agent } from 'node:http';
import { StreamChat } from 'stream-chat';
import { expect } from 'vitest';
import { readStreamError } from '../contract/helpers.ts';

/*
 * A burst of sends with a shutdown signal in the middle, shared by the chat server's and the product server's drain
 * tests (#20). Sends go through the real server-side client over a few keep-alive connections, as the product
 * backend's do; every outcome is recorded with whether it was in flight when the signal went out.
 */

export interface SendOutcome {
  id: string;
  /** Dispatched before the signal and answered (or failed) after it. */
  inFlightAtSignal: boolean;
  /** 'ok' (2xx), 'http' (an error status), or 'network' (no HTTP answer: refused, reset). */
  result: 'ok' | 'http' | 'network';
  detail: string;
}

export interface DrainLoad {
  outcomes: SendOutcome[];
}

export interface DrainLoadOptions {
  baseURL: string;
  apiKey: string;
  apiSecret: string;
  channelType: string;
  channelId: string;
  userId: string;
  /** How many sends in the burst (at most 300: the stored ones are read back in one query). */
  count: number;
  /** The signal goes out once this many sends have succeeded. */
  signalAfter: number;
  signal: () => void;
}

/** Keep-alive connections the burst shares, so most sends wait their turn and some are mid-request at the signal. */
const SOCKETS = 8;

export async function sendBurstAcrossSignal(options: DrainLoadOptions): Promise<DrainLoad> {
  const agent = new Agent({ keepAlive: true, maxSockets: SOCKETS });
  // A generous timeout: a slow answer on a loaded machine must not pass for a dropped one.
  const client = new StreamChat(options.apiKey, options.apiSecret, {
    baseURL: options.baseURL,
    httpAgent: agent,
    timeout: 30_000,
  });
  const channel = client.channel(options.channelType, options.channelId);
  let signalled = false;
  let succeeded = 0;
  try {
    const sends = Array.from({ length: options.count }, async (_, n): Promise<SendOutcome> => {
      const id = randomUUID();
      const dispatchedBeforeSignal = !signalled;
      const outcome = (result: SendOutcome['result'], detail: string): SendOutcome => ({
        id,
        inFlightAtSignal: dispatchedBeforeSignal && signalled,
        result,
        detail,
      });
      try {
        await channel.sendMessage({ id, text: `Tin nhắn số ${n}`, user_id: options.userId });
        succeeded += 1;
        if (succeeded === options.signalAfter) {
          signalled = true;
          options.signal();
        }
        return outcome('ok', '2xx');
      } catch (error) {
        const shape = readStreamError(error);
        if (shape.status !== undefined) return outcome('http', `${shape.status}: ${shape.message}`);
        const code = (error as { code?: unknown }).code;
        return outcome('network', `${String(code)}: ${shape.message}`);
      }
    });
    return { outcomes: await Promise.all(sends) };
  } finally {
    agent.destroy();
  }
}

/** The ids of the messages stored in the channel (read back through the real client after a restart). */
export async function storedMessageIds(
  baseURL: string,
  apiKey: string,
  apiSecret: string,
  channelType: string,
  channelId: string,
): Promise<Set<string>> {
  const client = new StreamChat(apiKey, apiSecret, { baseURL, timeout: 30_000 });
  const state = await client.channel(channelType, channelId).query({ messages: { limit: 300 } });
  return new Set(state.messages.map((message) => message.id));
}

/** What a drain must guarantee about a burst: every send answered or never received, and every answered one kept. */
export function expectDrained(outcomes: readonly SendOutcome[], stored: ReadonlySet<string>): void {
  // Nothing the server accepted is refused with an error status (Fastify's bare 503 while closing).
  expect(outcomes.filter((o) => o.result === 'http')).toEqual([]);
  // Requests in progress at the signal were finished, not cut off.
  expect(outcomes.some((o) => o.inFlightAtSignal && o.result === 'ok')).toBe(true);
  for (const outcome of outcomes) {
    if (outcome.result === 'ok') expect(stored.has(outcome.id), outcome.id).toBe(true);
    // A send the client saw fail never reached the server (its connection was refused), so it is not stored.
    else expect(stored.has(outcome.id), `${outcome.id} failed with ${outcome.detail}`).toBe(false);
  }
}
