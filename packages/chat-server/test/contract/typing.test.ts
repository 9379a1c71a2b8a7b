import { describe, expect, it } from 'vitest';
import {
  connectUser,
  sendText,
  uniqueId,
  useContractEnv,
  waitForEvent,
  watchChannel,
} from './helpers.ts';

describe('typing', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function pair(prefix: string) {
    const aliceId = uniqueId(`${prefix}-a`);
    const bobId = uniqueId(`${prefix}-b`);
    const alice = await connectUser(env(), aliceId);
    const bob = await connectUser(env(), bobId);
    const channelId = uniqueId(prefix);
    const aliceChannel = await watchChannel(alice, 'messaging', channelId, {
      members: [aliceId, bobId],
    });
    const bobChannel = await watchChannel(bob, 'messaging', channelId);
    return { aliceId, aliceChannel, bobChannel };
  }

  it('turns keystroke() and stopTyping() into typing.start and typing.stop at the other watcher', async () => {
    const { aliceId, aliceChannel, bobChannel } = await pair('typing');

    const started = waitForEvent(bobChannel, 'typing.start', (event) => event.user?.id === aliceId);
    await aliceChannel.keystroke();
    const startEvent = await started;

    expect(startEvent.cid).toBe(bobChannel.cid);
    expect(bobChannel.state.typing[aliceId]?.user?.id).toBe(aliceId);

    const stopped = waitForEvent(bobChannel, 'typing.stop', (event) => event.user?.id === aliceId);
    await aliceChannel.stopTyping();
    await stopped;

    expect(bobChannel.state.typing[aliceId]).toBeUndefined();
  });

  it('carries parent_id for typing inside a thread', async () => {
    const { aliceId, aliceChannel, bobChannel } = await pair('thread-typing');
    const parent = await sendText(aliceChannel, 'Luồng thảo luận');

    const started = waitForEvent(bobChannel, 'typing.start', (event) => event.user?.id === aliceId);
    await aliceChannel.keystroke(parent.id);

    expect((await started).parent_id).toBe(parent.id);
  });
});
