import type { ChatClientConfig } from '@daohuu/domain';
import type { Channel, LocalMessage } from 'stream-chat';
import { afterEach, describe, expect, it } from 'vitest';
import { openingChannel, previewMessages } from './first-messages';
import { rememberLastChannel } from './last-channel';

const CONFIG: Pick<ChatClientConfig, 'publicChannels'> = {
  publicChannels: [
    { type: 'sect', id: 'quang-truong', name: 'Quảng Trường' },
    { type: 'sect', id: 'giao-dich', name: 'Giao Dịch' },
  ],
};

describe('the channel the chat opens on, as the preview guesses it', () => {
  afterEach(() => window.localStorage.clear());

  it('is the channel the address names, on any screen', () => {
    expect(openingChannel({ type: 'messaging', id: 'abc' }, false, CONFIG, 'lam')).toEqual({
      type: 'messaging',
      id: 'abc',
      cid: 'messaging:abc',
    });
  });

  it('is the sect channel an old livestream link now points to', () => {
    expect(
      openingChannel({ type: 'livestream', id: 'giao-dich' }, true, CONFIG, undefined),
    ).toEqual({ type: 'sect', id: 'giao-dich', cid: 'sect:giao-dich' });
  });

  it('is none on a phone at /chat, where the channel list is the screen', () => {
    expect(openingChannel({}, false, CONFIG, 'lam')).toBeNull();
  });

  it('is the cultivator’s last channel on a wide screen, else the first public sect channel', () => {
    expect(openingChannel({}, true, CONFIG, 'lam')?.cid).toBe('sect:quang-truong');
    rememberLastChannel('lam', 'messaging:lam-va-an');
    expect(openingChannel({}, true, CONFIG, 'lam')?.cid).toBe('messaging:lam-va-an');
    // A guest has no last channel, whatever this browser kept for someone else.
    expect(openingChannel({}, true, CONFIG, undefined)?.cid).toBe('sect:quang-truong');
  });

  it('is none when there is no public channel to fall back to', () => {
    expect(openingChannel({}, true, { publicChannels: [] }, undefined)).toBeNull();
  });
});

function message(id: string, fields: Partial<LocalMessage> = {}): LocalMessage {
  return {
    id,
    type: 'regular',
    text: `tin ${id}`,
    created_at: new Date('2026-11-26T08:00:00Z'),
    ...fields,
  } as LocalMessage;
}

describe('the messages the preview lists', () => {
  it('keeps regular messages with text or attachments, newest last, and leaves out deleted and system ones', () => {
    const channel = {
      state: {
        messages: [
          message('1'),
          message('2', { type: 'deleted' }),
          message('3', { type: 'system', text: 'Lâm đã vào kênh' }),
          message('4', { text: '', attachments: [{ type: 'image' }] }),
          message('5', { text: '' }),
          message('6', { type: 'reply' }),
        ],
      },
    } as unknown as Channel;
    expect(previewMessages(channel).map((m) => m.id)).toEqual(['1', '4', '6']);
  });

  it('shows at most the latest thirty', () => {
    const many = Array.from({ length: 45 }, (_, i) => message(String(i)));
    const channel = { state: { messages: many } } as unknown as Channel;
    const shown = previewMessages(channel);
    expect(shown).toHaveLength(30);
    expect(shown.at(-1)?.id).toBe('44');
    expect(shown[0]?.id).toBe('15');
  });
});
