import type { Channel } from 'stream-chat';

/*
 * Sends with ids chosen by the test, recording which the server acknowledged, so that after a failure the test can
 * say exactly what must be stored: every acknowledged message once, and a failed send, retried with its own id once
 * the cluster is back, once as well (a send that reached the database before its answer was lost is refused as a
 * duplicate on retry, never stored twice).
 */
export interface SendLog {
  acknowledged: string[];
  /** Sends that got no acknowledgement, with what the client saw. */
  failed: { id: string; error: SendFailure }[];
}

export interface SendFailure {
  /** The HTTP status, when an answer came. */
  status?: number;
  /** Stream's error code from a JSON error body; undefined when the body was not a Stream error. */
  code?: number;
  body?: unknown;
  message: string;
}

export const newSendLog = (): SendLog => ({ acknowledged: [], failed: [] });

/** Sends one message; true when acknowledged. */
export async function sendRecorded(
  channel: Channel,
  id: string,
  log: SendLog,
  text = `Tin ${id}`,
): Promise<boolean> {
  try {
    const answer = await channel.sendMessage({ id, text });
    log.acknowledged.push(answer.message.id);
    return true;
  } catch (error) {
    log.failed.push({ id, error: describeFailure(error) });
    return false;
  }
}

/** What a failed client call carried: stream-chat wraps an HTTP error answer with its status and body. */
export function describeFailure(error: unknown): SendFailure {
  const failure = error as {
    message?: string;
    status?: number;
    code?: number;
    response?: { status?: number; data?: unknown };
  };
  const body = failure.response?.data;
  const code =
    body && typeof body === 'object' && typeof (body as { code?: unknown }).code === 'number'
      ? (body as { code: number }).code
      : undefined;
  return {
    status: failure.response?.status ?? failure.status,
    code,
    body,
    message: failure.message ?? String(error),
  };
}

/** Retries every failed send once with its own id: acknowledged, or refused because it is already stored. */
export async function retryFailed(channel: Channel, log: SendLog): Promise<string[]> {
  const retried: string[] = [];
  for (const { id } of log.failed) {
    try {
      await channel.sendMessage({ id, text: `Tin ${id}` });
    } catch (error) {
      const failure = describeFailure(error);
      if (!(failure.code === 4 && /already exists/i.test(JSON.stringify(failure.body))))
        throw new Error(`retry of ${id} failed: ${JSON.stringify(failure)}`, { cause: error });
    }
    retried.push(id);
  }
  return retried;
}

/** Every message id the channel stores, oldest first (as many as `limit`). */
export async function storedIds(channel: Channel, limit = 300): Promise<string[]> {
  const state = await channel.query({ messages: { limit } });
  return (state.messages ?? []).map((message) => message.id);
}

/** How many times each id occurs, for exactly-once checks. */
export function occurrences(ids: string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return counts;
}
