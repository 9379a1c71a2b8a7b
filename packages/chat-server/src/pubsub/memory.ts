import type { BusHandler, BusMessage, PubSub, Unsubscribe } from './pubsub.ts';

/** In-process PubSub: delivers synchronously to every handler; allows running a single node only. */
export function createMemoryPubSub(): PubSub {
  const handlers = new Map<string, Set<BusHandler>>();
  const deliver = (topic: string, message: BusMessage) => {
    const set = handlers.get(topic);
    if (!set) return;
    for (const handler of [...set]) handler(message);
  };
  return {
    async publish(topic: string, message: BusMessage) {
      deliver(topic, message);
    },
    async publishEach(entries) {
      for (const { topic, message } of entries) deliver(topic, message);
    },
    async subscribe(topic: string, handler: BusHandler): Promise<Unsubscribe> {
      let set = handlers.get(topic);
      if (!set) {
        set = new Set();
        handlers.set(topic, set);
      }
      set.add(handler);
      return async () => {
        const current = handlers.get(topic);
        if (!current) return;
        current.delete(handler);
        if (current.size === 0) handlers.delete(topic);
      };
    },
    // In one process nothing can be missed.
    receiving: true,
    onReceivingChange() {},
    async close() {
      handlers.clear();
    },
  };
}
