import { AsyncLocalStorage } from 'node:async_hooks';

/*
 * Events whose audience is looked up asynchronously (event-audience filters) leave the server a little after the
 * call that made them. Clients expect a REST call's own events to be on their way when its answer arrives (a
 * markRead's message.read, say), so a request waits for the events it published before it answers.
 */
const pending = new AsyncLocalStorage<Promise<unknown>[]>();

/** Runs `work`, then waits until every event it published has been handed to the bus. */
export function settlingPublishes<T>(work: () => Promise<T>): Promise<T> {
  const published: Promise<unknown>[] = [];
  return pending.run(published, async () => {
    const result = await work();
    while (published.length > 0) await Promise.all(published.splice(0));
    return result;
  });
}

/** Called by the publisher for an event that goes out later; outside a request nobody waits for it. */
export function trackPublish(publishing: Promise<unknown>): void {
  pending.getStore()?.push(publishing);
}
