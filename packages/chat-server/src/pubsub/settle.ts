/*
 * Events whose audience is looked up asynchronously (event-audience filters) leave the server a little after the
 * call that made them. Clients expect a REST call's own events to be on their way when its answer arrives (a
 * markRead's message.read, say), so a request waits for the events it published before it answers.
 *
 * The publishes a request waits for are those registered while its handler ran, numbered in order. That can include
 * a concurrent request's (each is one short audience lookup), never an older one. An AsyncLocalStorage would tell
 * the requests apart exactly, but on Node 20 it turns on promise hooks for the whole process: every promise of every
 * request then paid for it (about a tenth of the server's CPU in a reconnect storm's watches, bench/chat-fanout).
 */
const inFlight = new Map<number, Promise<unknown>>();
let registered = 0;

/** Runs `work`, then waits until every event published while it ran has been handed to the bus. */
export async function settlingPublishes<T>(work: () => Promise<T>): Promise<T> {
  const from = registered;
  const result = await work();
  if (inFlight.size === 0) return result;
  const until = registered;
  const mine: Promise<unknown>[] = [];
  for (const [id, publishing] of inFlight) if (id >= from && id < until) mine.push(publishing);
  await Promise.all(mine);
  return result;
}

/** Called by the publisher for an event that goes out later; outside a request nobody waits for it. */
export function trackPublish(publishing: Promise<unknown>): void {
  const id = registered++;
  inFlight.set(id, publishing);
  const done = () => inFlight.delete(id);
  publishing.then(done, done);
}
