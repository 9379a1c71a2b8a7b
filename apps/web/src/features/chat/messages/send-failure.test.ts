import { describe, expect, it } from 'vitest';
import { formatMoment } from '@/lib/format-moment';
import { describeErrorMessage, describeSendFailure, type SendErrorLike } from './send-failure';

const MORE_INFO = 'https://getstream.io/chat/docs/api_errors_response';

/** stream-chat's ErrorFromResponse around the chat server's error JSON, as stream-chat-react keeps it. */
function refused(code: number, status: number, message: string): SendErrorLike {
  return {
    code,
    status,
    message: `StreamChat error code ${code}: ${message}`,
    response: {
      status,
      data: {
        code,
        message,
        StatusCode: status,
        duration: '1.17ms',
        more_info: MORE_INFO,
        details: [],
      },
    },
  };
}

// Each payload was copied from the chat server's answer to the real stream-chat client (packages/chat-server).
const cases: Array<[string, SendErrorLike, string, boolean]> = [
  [
    'a block-list word with blocklist_behavior block',
    refused(4, 400, 'Message was blocked by moderation policies'),
    'Chưa gửi được: tin nhắn chứa từ bị cấm',
    false,
  ],
  [
    'the other person in a one-to-one conversation blocked the author',
    refused(17, 403, 'you cannot send messages to a user who blocked you'),
    'Chưa gửi được: người này đã chặn đạo hữu',
    false,
  ],
  [
    'slow mode',
    refused(60, 403, 'slow mode: wait 30 seconds between messages'),
    'Chưa gửi được: kênh đang bật chế độ chậm, đợi 30 giây',
    true,
  ],
  [
    'a text over the length limit',
    refused(4, 400, 'message is too long: the text has 6000 characters, the limit is 5000'),
    'Chưa gửi được: tin nhắn quá dài (tối đa 5000 ký tự)',
    false,
  ],
  [
    'a channel the author may not write in',
    refused(
      17,
      403,
      'sending a message to messaging:c3-ee235aa8 is not allowed (missing send-message)',
    ),
    'Chưa gửi được: đạo hữu không có quyền gửi tin nhắn ở kênh này',
    false,
  ],
  [
    'a frozen channel (the reaction path’s refusal)',
    refused(17, 403, 'channel messaging:abc is frozen'),
    'Chưa gửi được: kênh đang bị đóng băng',
    false,
  ],
  [
    'the per-user send limit',
    refused(
      9,
      429,
      'Too many requests: sendMessage is limited to 60 calls per window. Check the X-RateLimit-* response headers for when to try again.',
    ),
    'Chưa gửi được: đạo hữu gửi quá nhanh, hãy thử lại sau ít phút',
    true,
  ],
  [
    'a request body over the server limit',
    refused(22, 413, 'request body is too large'),
    'Chưa gửi được: tin nhắn quá lớn',
    false,
  ],
  [
    'a lost connection (stream-chat-react’s network error has status 0 and no code)',
    {
      code: null,
      status: 0,
      message: 'Network Error',
      response: { status: 0, data: { message: 'Network Error' } },
    },
    'Chưa gửi được',
    true,
  ],
  [
    'a server fault',
    refused(-1, 500, 'Internal Server Error'),
    'Chưa gửi được: máy chủ đang gặp sự cố, hãy thử lại',
    true,
  ],
  [
    'an input error the user cannot fix by hand',
    refused(4, 400, 'message.id must be a string'),
    'Chưa gửi được: tin nhắn không hợp lệ',
    false,
  ],
];

describe('describeSendFailure', () => {
  it.each(cases)('explains %s in Vietnamese', (_label, error, text, retryable) => {
    expect(describeSendFailure(error)).toMatchObject({ text, retryable });
  });

  it('says until when a ban lasts when the app knows the ban, and that it is permanent when it has no end', () => {
    const error = refused(17, 403, 'user tu-si-1 is banned');
    const expires = '2026-11-26T07:30:00.000Z';
    expect(describeSendFailure(error, { ban: { expires, reason: 'Spam' } })).toEqual({
      kind: 'banned',
      text: `Chưa gửi được: đạo hữu đang bị cấm chat đến ${formatMoment(expires)}`,
      retryable: false,
    });
    expect(describeSendFailure(error, { ban: { expires: null, reason: null } }).text).toBe(
      'Chưa gửi được: đạo hữu đang bị cấm chat vĩnh viễn',
    );
    expect(describeSendFailure(error).text).toBe('Chưa gửi được: đạo hữu đang bị cấm chat');
  });

  it('prefers the seconds slow mode still has left over the channel’s whole cooldown', () => {
    const error = refused(60, 403, 'slow mode: wait 30 seconds between messages');
    expect(describeSendFailure(error, { cooldownRemaining: 12 }).text).toBe(
      'Chưa gửi được: kênh đang bật chế độ chậm, đợi 12 giây',
    );
    expect(describeSendFailure(error, { cooldownRemaining: 0 }).text).toBe(
      'Chưa gửi được: kênh đang bật chế độ chậm, đợi 30 giây',
    );
  });

  it('reads the reason from the error’s own message when the response body is missing', () => {
    const bare = {
      code: 4,
      status: 400,
      message: 'StreamChat error code 4: Message was blocked by moderation policies',
    };
    expect(describeSendFailure(bare).kind).toBe('blocklist');
  });

  it('falls back to a generic reason when the message keeps no error at all', () => {
    expect(describeSendFailure(undefined)).toMatchObject({ kind: 'network', retryable: true });
  });
});

describe('describeErrorMessage', () => {
  it('explains Stream’s error message for a send to a frozen channel, and nothing else', () => {
    expect(describeErrorMessage('Sorry, this channel has been frozen by the admin')).toEqual({
      kind: 'frozen',
      text: 'Chưa gửi được: kênh đang bị đóng băng',
      retryable: false,
    });
    expect(describeErrorMessage('Something else went wrong')).toBeUndefined();
    expect(describeErrorMessage(undefined)).toBeUndefined();
  });
});
