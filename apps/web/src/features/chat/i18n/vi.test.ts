import dayjs from 'dayjs';
import { NotificationManager, type Notification } from 'stream-chat';
import { enTranslations, type Streami18n } from 'stream-chat-react';
import { describe, expect, it } from 'vitest';

import {
  createStreami18n,
  enOneClockTimestamps,
  viClientMessages,
  viTranslations,
  type ChatLanguage,
} from './index';

type Translate = Awaited<ReturnType<Streami18n['getTranslators']>>['t'];

const english: Record<string, string> = enTranslations;
const vietnamese: Record<string, string> = viTranslations;
const englishKeys = Object.keys(english);

// Texts that are already correct Vietnamese as the English file writes them: format-only strings,
// the loanwords "video" and "menu", and "GIF". Anything else left in English is a missed translation.
const SAME_AS_ENGLISH = [
  '+{{ imageCount }}',
  '{{ count }} videos_one',
  'aria/{{ count }} {{ suggestionsLabel }}_one',
  'aria/{{ count }} {{ suggestionsLabel }}_other',
  'aria/GIF',
  'aria/video',
  'duration/Share Location',
  'Menu',
  'timestamp/ChannelMembersLastActive',
  'timestamp/MessageTimestamp',
  'timestamp/PollVote',
  'timestamp/PollVoteTooltip',
  'translationBuilderTopic/notification',
  'Video',
  'videoCount_one',
];

// docs/product-rules.md §7, English text → the Vietnamese shown to đạo hữu.
const SPEC_MESSAGES: Record<string, string> = {
  'Error uploading attachment': 'Lỗi khi tải lên tệp đính kèm',
  'The attachment upload was blocked': 'Tải lên tệp đính kèm đã bị chặn',
  'File is required for upload attachment': 'Cần chọn tệp để tải lên tệp đính kèm',
  'Local upload attachment missing local id': 'Tệp đính kèm cục bộ thiếu mã định danh cục bộ',
  'Wait until all attachments have uploaded': 'Vui lòng đợi tất cả tệp đính kèm tải lên xong',
  'Failed to get the draft': 'Không tải được bản nháp',
  'Failed to create the poll': 'Không tạo được bình chọn',
  'Failed to share the location': 'Không chia sẻ được vị trí',
  'Reached the vote limit. Remove an existing vote first.':
    'Đã đạt giới hạn số phiếu. Hãy bỏ một phiếu đã bầu trước.',
};

/** Each `{{ … }}` as its variable plus formatter name; formatter options may differ per language. */
function placeholders(text: string): string[] {
  return [...text.matchAll(/\{\{(.*?)\}\}/g)]
    .map(([, inner = '']) => inner.replace(/\(.*\)/s, '').replace(/\s+/g, ''))
    .sort();
}

function calendarCases(text: string): string[] {
  const formats = /calendarFormats: (\{.*\})\s*\)/.exec(text)?.[1];
  if (formats === undefined) throw new Error(`no calendarFormats in ${text}`);
  return Object.keys(JSON.parse(formats) as Record<string, string>).sort();
}

async function translatorFor(language: ChatLanguage): Promise<Translate> {
  const { t } = await createStreami18n(language).getTranslators();
  return t;
}

/** The text stream-chat-react's notification list renders for a notification. */
function shownText(t: Translate, notification: Notification): string {
  return t('translationBuilderTopic/notification', { notification, value: notification.message });
}

function raise(message: string, type?: string, metadata?: Record<string, unknown>): Notification {
  const manager = new NotificationManager();
  manager.addError({ message, origin: { emitter: 'vi.test' }, options: { type, metadata } });
  const [notification] = manager.notifications;
  if (!notification) throw new Error('the notification manager kept no notification');
  return notification;
}

describe('the Vietnamese chat translation file', () => {
  it('has an entry for every key of the English file', () => {
    expect(englishKeys.length).toBeGreaterThan(600);
    expect(englishKeys.filter((key) => !(key in vietnamese))).toEqual([]);
  });

  it('has no key the English file lacks', () => {
    expect(Object.keys(vietnamese).filter((key) => !(key in english))).toEqual([]);
  });

  it('has no empty entry', () => {
    const empty = Object.entries(vietnamese).filter(
      ([, text]) => typeof text !== 'string' || text.trim() === '',
    );
    expect(empty).toEqual([]);
  });

  it('tells a renamed or dropped placeholder apart from a kept one', () => {
    expect(placeholders('{{ users }} và {{ user }} đang nhập…')).toEqual(
      placeholders('{{ users }} and {{ user }} are typing...'),
    );
    expect(placeholders('{{ user }} đang nhập…')).not.toEqual(
      placeholders('{{ users }} is typing...'),
    );
    expect(placeholders('Đang nhập…')).not.toEqual(placeholders('{{ user }} is typing...'));
  });

  it('keeps every placeholder of the English text under the same name and formatter', () => {
    const broken = englishKeys.filter(
      (key) =>
        key in vietnamese &&
        placeholders(vietnamese[key] ?? '').join() !== placeholders(english[key] ?? '').join(),
    );
    expect(broken).toEqual([]);
  });

  it('keeps the calendar formats parseable and covering the same days as the English ones', () => {
    const calendarKeys = englishKeys.filter((key) => english[key]?.includes('calendarFormats'));
    expect(calendarKeys.length).toBeGreaterThan(0);
    for (const key of calendarKeys) {
      expect(calendarCases(vietnamese[key] ?? ''), key).toEqual(calendarCases(english[key] ?? ''));
    }
  });

  it('leaves only the listed texts identical to English', () => {
    const identical = englishKeys.filter((key) => vietnamese[key] === english[key]);
    expect(identical.sort()).toEqual([...SAME_AS_ENGLISH].sort());
  });

  it('addresses the reader as "đạo hữu", leaving "Bạn" only as the bare author label "You"', () => {
    const addressedAsBan = Object.entries(vietnamese)
      .filter(([key, text]) => key !== 'You' && /(^|[^\p{L}])bạn($|[^\p{L}])/iu.test(text))
      .map(([key]) => key);
    expect(addressedAsBan).toEqual([]);
    expect(vietnamese['You']).toBe('Bạn');
    expect(vietnamese['Are you sure you want to delete this message?']).toBe(
      'Đạo hữu có chắc muốn xóa tin nhắn này không?',
    );
  });

  it('keeps the extra client messages apart from the English keys and non-empty', () => {
    const entries = Object.entries(viClientMessages);
    expect(entries.filter(([key]) => key in english)).toEqual([]);
    expect(entries.filter(([key, text]) => text.trim() === '' || text === key)).toEqual([]);
  });
});

describe('createStreami18n', () => {
  it('translates plain keys, plurals and interpolations into Vietnamese', async () => {
    const t = await translatorFor('vi');
    expect(t('Cancel')).toBe('Hủy');
    expect(t('Delete')).toBe('Xóa');
    expect(t('Thread Reply')).toBe('Trả lời trong chuỗi');
    expect(t('Add reaction')).toBe('Thêm biểu cảm');
    expect(t('replyCount', { count: 1 })).toBe('1 câu trả lời');
    expect(t('replyCount', { count: 7 })).toBe('7 câu trả lời');
    expect(t('{{ count }} people are typing', { count: 3 })).toBe('3 người đang nhập…');
    expect(t('{{ user }} is typing...', { user: 'Lâm Động' })).toBe('Lâm Động đang nhập…');
    expect(
      t('File is too large: {{ size }}, maximum upload size is {{ limit }}', {
        size: '12 MB',
        limit: '10 MB',
      }),
    ).toBe('Tệp quá lớn: 12 MB, dung lượng tải lên tối đa là 10 MB');
  });

  it('shows every text of docs/product-rules.md §7 in Vietnamese', async () => {
    const t = await translatorFor('vi');
    for (const [englishText, vietnameseText] of Object.entries(SPEC_MESSAGES)) {
      expect(t(englishText)).toBe(vietnameseText);
    }
  });

  it('shows the chat client notifications of docs/product-rules.md §7 in Vietnamese', async () => {
    const t = await translatorFor('vi');
    expect(
      shownText(
        t,
        raise(
          'Wait until all attachments have uploaded',
          'validation:attachment:upload:in-progress',
        ),
      ),
    ).toBe('Vui lòng đợi tất cả tệp đính kèm tải lên xong');
    expect(shownText(t, raise('Error uploading attachment', 'api:attachment:upload:failed'))).toBe(
      'Lỗi khi tải lên tệp đính kèm',
    );
    expect(
      shownText(
        t,
        raise('The attachment upload was blocked', 'validation:attachment:upload:blocked', {
          reason: 'size_limit',
        }),
      ),
    ).toBe('Tải lên tệp đính kèm bị chặn do giới hạn dung lượng');
    expect(shownText(t, raise('Failed to create the poll', 'api:poll:create:failed'))).toBe(
      'Không tạo được bình chọn',
    );
    expect(shownText(t, raise('Failed to share the location', 'api:location:create:failed'))).toBe(
      'Không chia sẻ được vị trí',
    );
    expect(
      shownText(
        t,
        raise(
          'Reached the vote limit. Remove an existing vote first.',
          'validation:poll:castVote:limit',
        ),
      ),
    ).toBe('Đã đạt giới hạn số phiếu. Hãy bỏ một phiếu đã bầu trước.');
    expect(shownText(t, raise('Failed to get the draft'))).toBe('Không tải được bản nháp');
    expect(
      shownText(t, raise('Command not ready to be sent', 'validation:command:not-ready')),
    ).toBe('Lệnh chưa sẵn sàng để gửi');
  });

  it('formats dates with the Vietnamese calendar and formats', async () => {
    const t = await translatorFor('vi');
    const yesterdayNoon = dayjs().subtract(1, 'day').hour(12).minute(0).toDate();
    const todayAfternoon = dayjs().hour(14).minute(30).toDate();
    const threeDaysAgo = dayjs().subtract(3, 'day').hour(12).toDate();
    const mondayLongAgo = new Date(2020, 0, 6, 9, 5);

    expect(t('timestamp/DateSeparator', { timestamp: yesterdayNoon })).toBe('Hôm qua');
    expect(t('timestamp/ChannelPreviewTimestamp', { timestamp: yesterdayNoon })).toBe('Hôm qua');
    expect(t('timestamp/PollVoteTooltip', { timestamp: yesterdayNoon })).toBe('Hôm qua lúc 12:00');
    expect(t('timestamp/PollVote', { timestamp: threeDaysAgo })).toBe('3 ngày trước');
    expect(t('timestamp/MessageTimestamp', { timestamp: todayAfternoon })).toBe('14:30');
    expect(
      t('Live until {{ timestamp }}', {
        timestamp: t('timestamp/LiveLocation', { timestamp: todayAfternoon }),
      }),
    ).toBe('Trực tiếp đến 14:30 hôm nay');
    expect(t('timestamp/DateSeparator', { timestamp: mondayLongAgo })).toBe('thứ hai, 6 tháng 1');
    expect(t('timestamp/SystemMessage', { timestamp: mondayLongAgo })).toBe('thứ hai, 06/01/2020');
  });

  it('words durations in Vietnamese without changing the English ones', async () => {
    const vi = await translatorFor('vi');
    const twoHours = 2 * 60 * 60 * 1000;
    expect(
      vi('Due {{ timeLeft }}', {
        timeLeft: vi('duration/Message reminder', { milliseconds: twoHours }),
      }),
    ).toBe('Đến hạn sau 2 giờ');
    expect(vi('duration/Remind Me', { milliseconds: 60 * 60 * 1000 })).toBe('Sau 1 giờ');
    expect(vi('duration/Remind Me', { milliseconds: twoHours })).toBe('Sau 2 giờ');
    expect(
      vi('Due since {{ dueSince }}', {
        dueSince: vi('duration/Message reminder', { milliseconds: -7 * 60 * 1000 }),
      }),
    ).toBe('Đã đến hạn 7 phút trước');
    expect(
      vi('Live for {{duration}}', {
        duration: vi('duration/Share Location', { milliseconds: 15 * 60 * 1000 }),
      }),
    ).toBe('Trực tiếp trong 15 phút');

    const en = await translatorFor('en');
    expect(en('duration/Remind Me', { milliseconds: twoHours })).toBe('in 2 hours');
  });

  it('keeps the English texts unchanged but for the 24-hour times, including those of docs/product-rules.md §7', async () => {
    const streami18n = createStreami18n('en');
    const t = await translatorFor('en');
    const oneClock = enOneClockTimestamps(english);
    expect(Object.keys(oneClock).length).toBeGreaterThan(0);
    expect(streami18n.getTranslations().en?.translation).toEqual({ ...english, ...oneClock });
    expect(t('Cancel')).toBe('Cancel');
    expect(t('replyCount', { count: 1 })).toBe('1 reply');

    const keyed = Object.keys(SPEC_MESSAGES).filter((text) => text in english);
    expect(keyed.length).toBeGreaterThan(0);
    for (const text of keyed) {
      expect(english[text]).toBe(text);
      expect(t(text)).toBe(text);
    }
    expect(
      shownText(
        t,
        raise(
          'Wait until all attachments have uploaded',
          'validation:attachment:upload:in-progress',
        ),
      ),
    ).toBe('Wait until all attachments have uploaded');
    expect(shownText(t, raise('Error uploading attachment', 'api:attachment:upload:failed'))).toBe(
      'Error uploading attachment',
    );
    expect(shownText(t, raise('Failed to get the draft'))).toBe('Failed to get the draft');
  });
});
