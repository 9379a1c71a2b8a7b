import * as React from 'react';
import type { StreamChat } from 'stream-chat';
import { flushOutbox } from './outbox-send';

/** How often queued sends are tried while some wait: a blocked route or a proxy can fail without the socket noticing. */
export const OUTBOX_RETRY_MS = 4_000;

/**
 * Sends the outbox when the chat connects (also after a reload), when the connection comes back, when the browser
 * goes online, and every few seconds while something waits. One flush at a time, so a message is never in flight
 * twice from this tab.
 */
export function OutboxFlusher({ client }: { client: StreamChat }) {
  React.useEffect(() => {
    let flushing = false;
    let stopped = false;
    const flush = async () => {
      if (flushing || stopped || !client.userID) return;
      flushing = true;
      try {
        await flushOutbox(client);
      } finally {
        flushing = false;
      }
    };
    const run = () => void flush();
    const timer = window.setInterval(run, OUTBOX_RETRY_MS);
    const subscriptions = [
      client.on('connection.recovered', run),
      client.on('connection.changed', (event) => event.online && run()),
    ];
    window.addEventListener('online', run);
    run();
    return () => {
      stopped = true;
      window.clearInterval(timer);
      window.removeEventListener('online', run);
      for (const subscription of subscriptions) subscription.unsubscribe();
    };
  }, [client]);
  return null;
}
