import { enTranslations } from 'stream-chat-react';
import { describe, expect, it } from 'vitest';
import { dateFormat, formatMomentIn } from '@/i18n';
import { createStreami18n, enOneClockTimestamps } from './index';

// Today, so the channel row's calendar format takes its same-day branch whatever day the test runs.
const AFTERNOON = new Date();
AFTERNOON.setHours(14, 8, 0, 0);

describe('English times on one clock', () => {
  it('turns every 12-hour LT format of the SDK into HH:mm and leaves the other texts alone', () => {
    const english = enTranslations as Record<string, string>;
    const fixed = enOneClockTimestamps(english);
    expect(Object.keys(fixed)).toContain('timestamp/ChannelPreviewTimestamp');
    expect(Object.values(fixed).every((format) => !/\bLT\b/.test(format))).toBe(true);
    expect(fixed['timestamp/ChannelPreviewTimestamp']).toContain('"sameDay": "HH:mm"');
    expect(Object.keys(fixed).every((key) => key.startsWith('timestamp/'))).toBe(true);
    expect(english['timestamp/MessageTimestamp']).toContain('HH:mm');
  });

  it('shows a channel row time as the message times are shown, 14:08 and not 2:08 PM', async () => {
    const i18n = createStreami18n('en');
    const { t, tDateTimeParser } = await i18n.getTranslators();
    const row = t('timestamp/ChannelPreviewTimestamp', { timestamp: tDateTimeParser(AFTERNOON) });
    const message = t('timestamp/MessageTimestamp', { timestamp: tDateTimeParser(AFTERNOON) });
    expect(row).toBe('14:08');
    expect(message).toBe('14:08');
  });

  it('shows the live location end and a poll vote on the 24-hour clock too, in the SDK’s own words', async () => {
    const i18n = createStreami18n('en');
    const { t, tDateTimeParser } = await i18n.getTranslators();
    for (const key of ['timestamp/LiveLocation', 'timestamp/PollVoteTooltip']) {
      expect(t(key, { timestamp: tDateTimeParser(AFTERNOON) })).toBe('Today at 14:08');
    }
  });

  it('writes our own English times on the 24-hour clock too', () => {
    expect(dateFormat('en', { timeStyle: 'short' }).format(AFTERNOON)).toBe('14:08');
    expect(formatMomentIn(AFTERNOON, 'en')).toMatch(/14:08/);
    expect(dateFormat('vi', { timeStyle: 'short' }).format(AFTERNOON)).toBe('14:08');
    expect(dateFormat('en', { dateStyle: 'medium' }).format(new Date(2026, 10, 26, 14, 8))).toBe(
      'Nov 26, 2026',
    );
  });
});
