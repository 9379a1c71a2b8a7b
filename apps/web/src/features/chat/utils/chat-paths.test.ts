import { movedSectChannel } from '@daohuu/domain';
import { describe, expect, it } from 'vitest';
import { CHAT_PATH, channelFromParams, chatChannelHref, movedSectChannelHref } from './chat-paths';

describe('chat paths', () => {
  it('lists channels at /chat', () => {
    expect(CHAT_PATH).toBe('/chat');
  });

  it('puts a channel at /chat/:type/:id', () => {
    expect(chatChannelHref('livestream', 'quang-truong')).toBe('/chat/livestream/quang-truong');
  });

  it('encodes the characters a distinct DM id can contain', () => {
    expect(chatChannelHref('messaging', '!members-a:b/c')).toBe(
      '/chat/messaging/!members-a%3Ab%2Fc',
    );
  });

  it('reads the channel back from the route params', () => {
    expect(channelFromParams({ type: 'messaging', id: '!members-x' })).toEqual({
      type: 'messaging',
      id: '!members-x',
      cid: 'messaging:!members-x',
    });
  });

  it('names no channel when the URL has no type or no id', () => {
    expect(channelFromParams({})).toBeNull();
    expect(channelFromParams({ type: 'livestream' })).toBeNull();
    expect(channelFromParams({ type: '', id: 'x' })).toBeNull();
  });

  it('sends an old livestream link of a sect channel to its sect path, and leaves other links alone', () => {
    const sects = [{ type: 'sect', id: 'giao-dich' }];
    expect(movedSectChannelHref({ type: 'livestream', id: 'giao-dich' }, sects)).toBe(
      '/chat/sect/giao-dich',
    );
    expect(movedSectChannelHref({ type: 'livestream', id: 'kenh-khac' }, sects)).toBeNull();
    expect(movedSectChannelHref({ type: 'sect', id: 'giao-dich' }, sects)).toBeNull();
    expect(movedSectChannelHref(null, sects)).toBeNull();
    expect(movedSectChannel({ type: 'livestream', id: 'giao-dich' }, sects)).toBe(sects[0]);
  });
});
