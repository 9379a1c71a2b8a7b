import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BusMessage, PubSub } from './pubsub.ts';

interface Sink {
  received: BusMessage[];
  handler: (message: BusMessage) => void;
  /** Resolves once `count` messages have arrived in total. */
  waitFor(count: number): Promise<BusMessage[]>;
}

function createSink(): Sink {
  const received: BusMessage[] = [];
  let waiters: { count: number; resolve: (m: BusMessage[]) => void }[] = [];
  return {
    received,
    handler(message) {
      received.push(message);
      waiters = waiters.filter((w) =>
        received.length >= w.count ? (w.resolve(received), false) : true,
      );
    },
    waitFor(count) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
  };
}

/** The assertions every PubSub implementation must pass; memory runs it always, Redis when REDIS_URL is set. */
export function describePubSubContract(name: string, factory: () => Promise<PubSub>): void {
  describe(`${name}: pubsub contract`, () => {
    let bus: PubSub;
    beforeEach(async () => {
      bus = await factory();
    });
    afterEach(async () => {
      await bus.close();
    });

    it('delivers a published frame to a subscriber of the same topic', async () => {
      const sink = createSink();
      await bus.subscribe('channel:app:messaging:general', sink.handler);
      await bus.publish('channel:app:messaging:general', { frame: '{"type":"message.new"}' });
      const [message] = await sink.waitFor(1);
      expect(message?.frame).toBe('{"type":"message.new"}');
    });

    it('does not deliver frames published on other topics', async () => {
      const sink = createSink();
      await bus.subscribe('user:app:alice', sink.handler);
      await bus.publish('user:app:bob', { frame: '"bob"' });
      await bus.publish('user:app:alice', { frame: '"alice"' });
      await sink.waitFor(1);
      expect(sink.received.map((m) => m.frame)).toEqual(['"alice"']);
    });

    it('keeps publish order on one topic and carries routing hints', async () => {
      const sink = createSink();
      await bus.subscribe('t', sink.handler);
      for (const n of [1, 2, 3]) await bus.publish('t', { frame: String(n), skipUserIds: ['x'] });
      const messages = await sink.waitFor(3);
      expect(messages.map((m) => m.frame)).toEqual(['1', '2', '3']);
      expect(messages[0]?.skipUserIds).toEqual(['x']);
    });

    it('delivers publishEach as if each entry were published in turn, in order with single publishes', async () => {
      const alice = createSink();
      const bob = createSink();
      await bus.subscribe('user:app:alice', alice.handler);
      await bus.subscribe('user:app:bob', bob.handler);
      await bus.publish('user:app:alice', { frame: '"1"' });
      await bus.publishEach([
        { topic: 'user:app:bob', message: { frame: '"2"', onlyWatchersOf: 'messaging:x' } },
        { topic: 'user:app:carol', message: { frame: '"nobody"' } },
        { topic: 'user:app:alice', message: { frame: '"3"', skipWatchersOf: 'messaging:x' } },
      ]);
      await bus.publish('user:app:alice', { frame: '"4"' });
      await bus.publishEach([]);
      await alice.waitFor(3);
      await bob.waitFor(1);
      expect(alice.received).toEqual([
        { frame: '"1"' },
        { frame: '"3"', skipWatchersOf: 'messaging:x' },
        { frame: '"4"' },
      ]);
      expect(bob.received).toEqual([{ frame: '"2"', onlyWatchersOf: 'messaging:x' }]);
    });

    it('hands all the entries of publishEach to their handlers in one pass, with nothing run in between', async () => {
      let between = false;
      let seenByLast: boolean | undefined;
      await bus.subscribe('user:app:first', () => queueMicrotask(() => (between = true)));
      await bus.subscribe('user:app:last', () => (seenByLast = between));
      await bus.publishEach([
        { topic: 'user:app:first', message: { frame: '"1"' } },
        { topic: 'user:app:last', message: { frame: '"2"' } },
      ]);
      expect(seenByLast).toBe(false);
    });

    it('stops delivering to a handler after it unsubscribed', async () => {
      const gone = createSink();
      const staying = createSink();
      const unsubscribe = await bus.subscribe('t', gone.handler);
      await bus.subscribe('t', staying.handler);
      await unsubscribe();
      await bus.publish('t', { frame: '1' });
      await staying.waitFor(1);
      expect(gone.received).toEqual([]);
    });
  });
}
