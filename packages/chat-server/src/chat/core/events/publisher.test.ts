import { describe, expect, it } from 'vitest';
import { createMemoryPubSub } from '../../../pubsub/memory.ts';
import { topics, type BusMessage } from '../../../pubsub/pubsub.ts';
import { channelEvent, userEvent } from '../wire/events.ts';
import { createEventPublisher } from './publisher.ts';

function setup() {
  const pubsub = createMemoryPubSub();
  const received = new Map<string, BusMessage[]>();
  const listen = async (topic: string) => {
    await pubsub.subscribe(topic, (message) => {
      received.set(topic, [...(received.get(topic) ?? []), message]);
    });
  };
  const quiet = () => undefined;
  const publisher = createEventPublisher({
    pubsub,
    log: { info: quiet, warn: quiet, error: quiet },
  });
  return { publisher, received, listen };
}

describe('event publisher', () => {
  it('gives each user the shared event with their own fields appended, keeping the routing hints', async () => {
    const { publisher, received, listen } = setup();
    await listen(topics.user('app', 'an'));
    await listen(topics.user('app', 'binh'));
    const channel = { cid: 'messaging:x', id: 'x', type: 'messaging', member_count: 2 };
    const event = channelEvent('message.new', channel, '2026-01-01T00:00:00.000Z', {
      message: { text: 'Chào "đạo hữu" }' },
    });

    publisher.toEachUser(
      'app',
      event,
      new Map([
        ['an', { total_unread_count: 2, unread_channels: 1 }],
        ['binh', {}],
      ]),
      { onlyWatchersOf: 'messaging:x' },
    );

    const [an] = received.get(topics.user('app', 'an')) ?? [];
    const [binh] = received.get(topics.user('app', 'binh')) ?? [];
    expect(JSON.parse(an!.frame)).toEqual({ ...event, total_unread_count: 2, unread_channels: 1 });
    expect(an!.onlyWatchersOf).toBe('messaging:x');
    expect(binh!.frame).toBe(JSON.stringify(event));
  });

  it('publishes nothing when no user has fields of their own', async () => {
    const { publisher, received, listen } = setup();
    await listen(topics.user('app', 'an'));
    const event = userEvent('notification.message_new', '2026-01-01T00:00:00.000Z', {});
    publisher.toEachUser('app', event, new Map());
    expect(received.size).toBe(0);
  });
});
