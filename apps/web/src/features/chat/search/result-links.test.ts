import type { MessageResponse } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { messageResultHref } from './result-links';

function message(fields: Partial<MessageResponse>): MessageResponse {
  return { id: 'm-1', cid: 'messaging:abc', type: 'regular', ...fields } as MessageResponse;
}

describe('messageResultHref', () => {
  it('opens a channel message in its channel', () => {
    expect(messageResultHref(message({}))).toBe('/chat/messaging/abc?ket-qua=m-1');
  });

  it('opens a reply that lives only in its thread with that thread', () => {
    expect(messageResultHref(message({ id: 'r-1', parent_id: 'p-1', type: 'reply' }))).toBe(
      '/chat/messaging/abc?ket-qua=r-1&chuoi=p-1',
    );
  });

  it('opens a reply also shown in the channel in the channel', () => {
    expect(messageResultHref(message({ id: 'r-2', parent_id: 'p-1', show_in_channel: true }))).toBe(
      '/chat/messaging/abc?ket-qua=r-2',
    );
  });

  it('encodes channel ids and message ids that URLs reserve characters for', () => {
    expect(messageResultHref(message({ id: 'a&b', cid: 'messaging:!members-x:y' }))).toBe(
      `/chat/messaging/${encodeURIComponent('!members-x:y')}?ket-qua=a%26b`,
    );
  });

  it('has no link for a message without a channel', () => {
    expect(messageResultHref(message({ cid: undefined }))).toBeNull();
    expect(messageResultHref(message({ cid: 'no-separator' }))).toBeNull();
  });
});
