import { describe, expect, it } from 'vitest';
import { sendText, twoMembers, useContractEnv, waitForEvent } from './helpers.ts';

describe('typing', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('turns keystroke() and stopTyping() into typing.start and typing.stop at the other watcher', async () => {
    const { aliceId, aliceChannel, bobChannel } = await twoMembers(env(), 'typing');

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
    const { aliceId, aliceChannel, bobChannel } = await twoMembers(env(), 'thread-typing');
    const parent = await sendText(aliceChannel, 'Luồng thảo luận');

    const started = waitForEvent(bobChannel, 'typing.start', (event) => event.user?.id === aliceId);
    await aliceChannel.keystroke(parent.id);

    expect((await started).parent_id).toBe(parent.id);
  });
});
