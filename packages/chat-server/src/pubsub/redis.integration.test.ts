import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { BusMessage } from './pubsub.ts';
import { describePubSubContract } from './pubsub.contract.ts';
import { createRedisPubSub } from './redis.ts';

const url = process.env.REDIS_URL;

if (url) {
  describePubSubContract('redis', () =>
    createRedisPubSub({ url, keyPrefix: `test:${randomBytes(4).toString('hex')}:` }),
  );

  describe('redis: two nodes', () => {
    it('delivers across nodes once each, the publishing node synchronously and without the echo', async () => {
      const keyPrefix = `test:${randomBytes(4).toString('hex')}:`;
      const [a, b] = await Promise.all([
        createRedisPubSub({ url, keyPrefix }),
        createRedisPubSub({ url, keyPrefix }),
      ]);
      try {
        const onA: BusMessage[] = [];
        const onB: BusMessage[] = [];
        let secondOnA: () => void = () => {};
        const secondArrivedOnA = new Promise<void>((resolve) => (secondOnA = resolve));
        let firstOnB: () => void = () => {};
        const firstArrivedOnB = new Promise<void>((resolve) => (firstOnB = resolve));
        // subscribe() resolves once Redis acknowledged the SUBSCRIBE, so no publish can be missed after it.
        await a.subscribe('channel:app:x', (m) => {
          onA.push(m);
          if (m.frame === '{"n":2}') secondOnA();
        });
        await b.subscribe('channel:app:x', (m) => {
          onB.push(m);
          if (m.frame === '{"n":1}') firstOnB();
        });

        const publishing = a.publish('channel:app:x', { frame: '{"n":1}', skipUserIds: ['u'] });
        expect(onA.map((m) => m.frame)).toEqual(['{"n":1}']);
        await publishing;
        await firstArrivedOnB;
        expect(onB).toEqual([{ frame: '{"n":1}', skipUserIds: ['u'] }]);

        await b.publish('channel:app:x', { frame: '{"n":2}' });
        // Redis delivers to A in publish order: an echo of n=1 would have arrived before n=2.
        await secondArrivedOnA;
        expect(onA.map((m) => m.frame)).toEqual(['{"n":1}', '{"n":2}']);
        expect(onB.map((m) => m.frame)).toEqual(['{"n":1}', '{"n":2}']);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
} else {
  describe('redis: pubsub contract', () => {
    it.todo('runs when REDIS_URL is set (skipped: no Redis configured)');
  });
}
