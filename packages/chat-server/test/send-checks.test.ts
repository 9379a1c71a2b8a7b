import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expectStreamError, twoMembers, useContractEnv } from './contract/helpers.ts';

/*
 * The checks a send passes before it is stored (src/chat/core/extension-points.ts `beforeMessageStored`): what one
 * check takes out of the message must not stay in its custom data, and what one check keeps aside for the message
 * must not outlive a refusal by a later check.
 */

describe('checks before a message is stored', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('treats an empty poll_id as no poll and stores none of it, as Stream does', async () => {
    const { aliceChannel, bob } = await twoMembers(env(), 'poll-rong');
    const id = randomUUID();
    const sent = await aliceChannel.sendMessage({ id, text: 'Không có bình chọn', poll_id: '' });
    expect(sent.message).not.toHaveProperty('poll_id');

    const { message } = await bob.getMessage(id);
    expect(message.text).toBe('Không có bình chọn');
    expect(message).not.toHaveProperty('poll_id');
    expect(message.poll).toBeUndefined();
  });

  it('still refuses a poll_id that is not a string, naming the field', async () => {
    const { aliceChannel } = await twoMembers(env(), 'poll-sai');
    await expectStreamError(
      aliceChannel.sendMessage({ id: randomUUID(), text: 'Sai', poll_id: 7 as unknown as string }),
      { code: 4, message: /poll_id/ },
    );
  });

  it('forgets a shared location whose send a later check refused: a retry with the same id carries none', async () => {
    const { aliceChannel, bob } = await twoMembers(env(), 'vi-tri-bo');
    const id = randomUUID();
    const location = {
      message_id: id,
      created_by_device_id: 'web-desktop-chrome-test',
      latitude: 21.028511,
      longitude: 105.804817,
    };
    // The location check passes; the poll check after it refuses an unknown poll.
    await expectStreamError(
      aliceChannel.sendMessage({
        id,
        text: 'Vị trí kèm bình chọn lạ',
        shared_location: location,
        poll_id: `khong-co-${randomUUID()}`,
      } as Parameters<typeof aliceChannel.sendMessage>[0]),
      { code: 4, message: /poll/ },
    );

    const retried = await aliceChannel.sendMessage({ id, text: 'Chỉ có chữ' });
    expect(retried.message.shared_location).toBeUndefined();
    const { message } = await bob.getMessage(id);
    expect(message.text).toBe('Chỉ có chữ');
    expect(message.shared_location).toBeUndefined();
  });
});
