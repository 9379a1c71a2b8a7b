import type { Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import type { BusEntry, BusMessage, PubSub } from '../../src/pubsub/pubsub.ts';
import { connectUsers, uniqueId, useContractEnv, waitForEvent, watchChannel } from './helpers.ts';

/*
 * A member who starts watching a channel while a message is sent in it must still hear of that message: as
 * `message.new` if the server counts them as watching when it announces it, as `notification.message_new` if not,
 * and never as neither (the browser notification for a mention hangs on it) nor as both.
 */

/**
 * Lets the first `passing` publishes on the server's own bus that carry `text` go out, and holds back every later one
 * until `release`. Whatever falls in between, a watch from another request (or, over Redis, from another node), then
 * lands between two parts of that message's announcement.
 */
function holdAnnouncement(bus: PubSub, text: string, passing: number) {
  const original = { publish: bus.publish, publishEach: bus.publishEach };
  const held: Array<() => Promise<void>> = [];
  let passed = 0;
  let reached = () => undefined as void;
  const split = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const gate = (messages: BusMessage[], send: () => Promise<void>): Promise<void> => {
    if (!messages.some((m) => m.frame.includes(text))) return send();
    if (passed >= passing) {
      held.push(send);
      return Promise.resolve();
    }
    passed += 1;
    if (passed === passing) reached();
    return send();
  };
  bus.publish = (topic: string, message: BusMessage) =>
    gate([message], () => original.publish.call(bus, topic, message));
  bus.publishEach = (entries: readonly BusEntry[]) =>
    gate(
      entries.map((entry) => entry.message),
      () => original.publishEach.call(bus, entries),
    );
  return {
    /** Resolves once the first `passing` publishes are out (never, if the announcement has fewer). */
    split,
    async release() {
      bus.publish = original.publish;
      bus.publishEach = original.publishEach;
      for (const send of held.splice(0)) await send();
    },
  };
}

describe('watching while a message is sent', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('tells a member whose watch lands anywhere in a message’s announcement of that message exactly once', async () => {
    const [alice, bob] = await connectUsers(env(), ['race-watch-a', 'race-watch-b']);
    const bus = env().server.runtime().deps.pubsub;
    for (const passing of [1, 2, 3, 4]) {
      const channel = await watchChannel(alice!.client, 'messaging', uniqueId('race-watch'), {
        members: [alice!.id, bob!.id],
      });
      const text = `Đạo hữu có ở đó không? (${passing})`;
      const heard: string[] = [];
      const listener = bob!.client.on((event: Event) => {
        if (event.cid === channel.cid && event.message?.text === text) heard.push(event.type);
      });
      const gate = holdAnnouncement(bus, text, passing);

      const sent = channel.sendMessage({ text });
      await Promise.race([gate.split, sent]);
      await bob!.client.channel('messaging', channel.id!).watch();
      await gate.release();
      await sent;
      // Bob watches now, so this comes as message.new, after anything the first message could still bring.
      const marker = waitForEvent(bob!.client, 'message.new', (e) => e.message?.text === 'mốc');
      await channel.sendMessage({ text: 'mốc' });
      await marker;
      listener.unsubscribe();

      expect(heard, `the watch after ${passing} of the announcement's publishes`).toHaveLength(1);
    }
  });
});
