import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
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

    it('sends one event to many users’ topics as one Redis message, each frame once, that the other node hands to its own subscribers', async () => {
      const keyPrefix = `test:${randomBytes(4).toString('hex')}:`;
      const [a, b] = await Promise.all([
        createRedisPubSub({ url, keyPrefix }),
        createRedisPubSub({ url, keyPrefix }),
      ]);
      // Everything this run's nodes put on Redis, whatever the channel.
      const spy = new Redis(url);
      const seen: { channel: string; payload: string }[] = [];
      spy.on('pmessage', (_pattern: string, channel: string, payload: string) =>
        seen.push({ channel, payload }),
      );
      await spy.psubscribe(`${keyPrefix}*`);
      try {
        const onB: BusMessage[] = [];
        let arrived: () => void = () => {};
        const bothArrived = new Promise<void>((resolve) => (arrived = resolve));
        for (const user of ['bob', 'carol'])
          await b.subscribe(`user:app:${user}`, (message) => {
            onB.push(message);
            if (onB.length === 2) arrived();
          });
        const frame = `{"type":"notification.message_new","text":"${'đạo hữu '.repeat(50)}"}`;
        await a.publishEach(
          ['alice', 'bob', 'carol', 'dan', 'em'].map((user) => ({
            topic: `user:app:${user}`,
            message: { frame, skipWatchersOf: 'messaging:x' },
          })),
        );
        await bothArrived;
        expect(onB).toEqual([
          { frame, skipWatchersOf: 'messaging:x' },
          { frame, skipWatchersOf: 'messaging:x' },
        ]);
        // Let anything else that was published arrive before counting.
        await a.publish('channel:app:end', { frame: '"end"' });
        await expect.poll(() => seen.length).toBe(2);
        expect(seen[0]?.channel).toBe(`${keyPrefix}*batch`);
        // Five entries sharing one frame: the frame travels once, not five times.
        expect(seen[0]?.payload.length).toBeLessThan(frame.length * 2);
      } finally {
        spy.disconnect();
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
} else {
  describe('redis: pubsub contract', () => {
    it.todo('runs when REDIS_URL is set (skipped: no Redis configured)');
  });
}
