import type { Event } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { channelWithMembers, useContractEnv, waitForEvent, type SharedChannel } from './helpers.ts';

/**
 * Stream's automatic feature throttling: above `limits.largeChannelWatchers` watchers a channel's typing and read
 * events no longer reach its other watchers. A "large" channel here is anything above 2 watchers.
 */
describe('typing and read events in a large channel', { timeout: 20_000 }, () => {
  const env = useContractEnv({ config: { limits: { largeChannelWatchers: 2 } } });

  /** The events of `types` the first member receives before the next message the second member sends. */
  async function seenBeforeNextMessage(channel: SharedChannel, types: string[]): Promise<Event[]> {
    const [listener, sender] = channel.members;
    const seen: Event[] = [];
    const subscriptions = types.map((type) =>
      listener!.channel.on(type as Event['type'], (event) => void seen.push(event)),
    );
    // Channel events reach a watcher in the order they were published: anything sent before the message arrives
    // before its message.new.
    const marker = waitForEvent(listener!.channel, 'message.new', (e) => e.user?.id === sender!.id);
    await sender!.channel.sendMessage({ text: 'Đạo hữu còn đó chăng?' });
    await marker;
    subscriptions.forEach((subscription) => subscription.unsubscribe());
    return seen;
  }

  it('relays typing in a channel at the threshold and drops it, still answering the sender, above it', async () => {
    const small = await channelWithMembers(env(), 'luyen-dan', { users: ['a', 'b'] });
    const typing = waitForEvent(small.members[0]!.channel, 'typing.start');
    await small.members[1]!.channel.sendEvent({ type: 'typing.start' });
    expect((await typing).user?.id).toBe(small.members[1]!.id);

    const large = await channelWithMembers(env(), 'luan-kiem', { users: ['c', 'd', 'e'] });
    const typer = large.members[1]!;
    const seen = seenBeforeNextMessage(large, ['typing.start']);
    const answer = await typer.channel.sendEvent({ type: 'typing.start' });
    expect(answer.event?.type).toBe('typing.start');
    expect(answer.event?.user?.id).toBe(typer.id);
    expect(await seen).toEqual([]);
  });

  it("keeps a reader's read state and tells their own sockets, but not the other watchers, above the threshold", async () => {
    const large = await channelWithMembers(env(), 'tang-kinh-cac', { users: ['f', 'g', 'h'] });
    const [listener, writer, reader] = large.members;
    const arrived = waitForEvent(reader!.channel, 'message.new');
    await writer!.channel.sendMessage({ text: 'Bí kíp mới' });
    await arrived;
    expect(reader!.channel.countUnread()).toBe(1);

    const ownNotice = waitForEvent(reader!.client, 'notification.mark_read');
    const seen: Event[] = [];
    const subscription = listener!.channel.on('message.read', (event) => void seen.push(event));
    await reader!.channel.markRead();
    await ownNotice;
    const marker = waitForEvent(listener!.channel, 'message.new', (e) => e.user?.id === reader!.id);
    await reader!.channel.sendMessage({ text: 'Đã đọc' });
    await marker;
    subscription.unsubscribe();
    expect(seen).toEqual([]);

    const { read } = await reader!.channel.query({ state: true });
    expect(read?.find((entry) => entry.user.id === reader!.id)?.unread_messages).toBe(0);
  });
});
