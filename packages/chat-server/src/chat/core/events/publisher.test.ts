import { describe, expect, it } from 'vitest';
import type { EventAudienceFilter } from '../extension-points.ts';
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

  it('marks typing and watching events ephemeral on the bus, and nothing that changes stored state', async () => {
    const { publisher, received, listen } = setup();
    const topic = topics.channel('app', 'livestream:x');
    await listen(topic);
    const channel = { cid: 'livestream:x', id: 'x', type: 'livestream', member_count: 0 };
    const at = '2026-01-01T00:00:00.000Z';
    for (const type of [
      'typing.start',
      'typing.stop',
      'user.watching.start',
      'user.watching.stop',
      'message.read',
      'message.new',
      'channel.updated',
    ] as const)
      publisher.toChannel('app', channel.cid, channelEvent(type, channel, at, {}));

    const marked = (received.get(topic) ?? []).map((message) => [
      (JSON.parse(message.frame) as { type: string }).type,
      message.ephemeral === true,
    ]);
    expect(marked).toEqual([
      ['typing.start', true],
      ['typing.stop', true],
      ['user.watching.start', true],
      ['user.watching.stop', true],
      ['message.read', false],
      ['message.new', false],
      ['channel.updated', false],
    ]);
  });

  it('publishes nothing when no user has fields of their own', async () => {
    const { publisher, received, listen } = setup();
    await listen(topics.user('app', 'an'));
    const event = userEvent('notification.message_new', '2026-01-01T00:00:00.000Z', {});
    publisher.toEachUser('app', event, new Map());
    expect(received.size).toBe(0);
  });

  it('drops an event whose audience lookup fails while an earlier event of its channel waits, with no unhandled rejection', async () => {
    const pubsub = createMemoryPubSub();
    const received: BusMessage[] = [];
    await pubsub.subscribe(topics.channel('app', 'messaging:x'), (message) => {
      received.push(message);
    });
    const warnings: string[] = [];
    let releaseFirst = () => undefined as void;
    const firstLookup = new Promise<string[]>((resolve) => {
      releaseFirst = () => resolve([]);
    });
    let calls = 0;
    // The first event's lookup waits; the second one's fails at once (a closed database, say).
    const filter: EventAudienceFilter = () => {
      calls += 1;
      return calls === 1
        ? firstLookup
        : Promise.reject(new Error('driver has already been destroyed'));
    };
    const publisher = createEventPublisher(
      {
        pubsub,
        log: {
          info: () => undefined,
          warn: (_fields: unknown, message: string) => void warnings.push(message),
          error: () => undefined,
        },
      },
      [filter],
    );
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const channel = { cid: 'messaging:x', id: 'x', type: 'messaging', member_count: 2 };
      const event = (text: string) =>
        channelEvent('message.new', channel, '2026-01-01T00:00:00.000Z', {
          user: { id: 'an' },
          message: { text },
        });
      publisher.toChannel('app', 'messaging:x', event('first'));
      publisher.toChannel('app', 'messaging:x', event('second'));
      // Long enough for Node to report a rejection nobody handled (it checks after each macrotask).
      await new Promise((resolve) => setTimeout(resolve, 50));
      releaseFirst();
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
    expect(unhandled).toEqual([]);
    expect(received.map((message) => JSON.parse(message.frame).message.text)).toEqual(['first']);
    expect(warnings).toEqual(['event audience lookup failed']);
  });

  it('sends a group as one bus message, with the audience filters applied to each of its events', async () => {
    const pubsub = createMemoryPubSub();
    const batches: string[][] = [];
    const publishEach = pubsub.publishEach.bind(pubsub);
    pubsub.publishEach = (entries) => {
      batches.push(entries.map((entry) => entry.topic));
      return publishEach(entries);
    };
    const quiet = () => undefined;
    // Binh blocked the author: they must hear of neither event.
    const filter: EventAudienceFilter = () => ['binh'];
    const publisher = createEventPublisher(
      { pubsub, log: { info: quiet, warn: quiet, error: quiet } },
      [filter],
    );
    const channel = { cid: 'messaging:x', id: 'x', type: 'messaging', member_count: 3 };
    const at = '2026-01-01T00:00:00.000Z';
    const fresh = channelEvent('message.new', channel, at, { user: { id: 'an' } });
    const notice = channelEvent('notification.message_new', channel, at, { user: { id: 'an' } });
    const received = new Map<string, BusMessage>();
    for (const topic of [
      topics.channel('app', 'messaging:x'),
      topics.user('app', 'binh'),
      topics.user('app', 'chi'),
    ])
      await pubsub.subscribe(topic, (message) => void received.set(topic, message));

    publisher.together('app', (out) => {
      out.toChannel('messaging:x', fresh);
      out.toUsers(['binh', 'chi'], notice, { skipWatchersOf: 'messaging:x' });
    });

    expect(batches).toEqual([[topics.channel('app', 'messaging:x'), topics.user('app', 'chi')]]);
    expect(received.get(topics.channel('app', 'messaging:x'))?.skipUserIds).toEqual(['binh']);
    expect(received.get(topics.user('app', 'chi'))?.skipWatchersOf).toBe('messaging:x');
    expect(received.has(topics.user('app', 'binh'))).toBe(false);
  });
});
