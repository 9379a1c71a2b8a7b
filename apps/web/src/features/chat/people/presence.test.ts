import { describe, expect, it } from 'vitest';
import { presenceText } from './presence';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('presenceText', () => {
  it('says "online now" while the user is connected, whatever their last activity', () => {
    expect(presenceText({ online: true, last_active: ago(3 * 86_400_000) }, NOW)).toEqual({
      key: 'Online now',
    });
  });

  it('counts the time since the last activity in the largest unit that fits, rounded down', () => {
    expect(presenceText({ online: false, last_active: ago(20_000) }, NOW)).toEqual({
      key: 'Active just now',
    });
    expect(presenceText({ last_active: ago(5 * 60_000 + 59_000) }, NOW)).toEqual({
      key: 'Active {{ minutes }} min ago',
      values: { minutes: 5 },
    });
    expect(presenceText({ last_active: ago(3 * 3_600_000) }, NOW)).toEqual({
      key: 'Active {{ hours }} h ago',
      values: { hours: 3 },
    });
    expect(presenceText({ last_active: ago(2 * 86_400_000 + 5) }, NOW)).toEqual({
      key: 'Active {{ days }} d ago',
      values: { days: 2 },
    });
  });

  it('treats a last activity in the future (a skewed clock) as just now', () => {
    expect(presenceText({ last_active: new Date(NOW + 90_000).toISOString() }, NOW)).toEqual({
      key: 'Active just now',
    });
  });

  it('says "offline" without a usable last activity', () => {
    expect(presenceText(undefined, NOW)).toEqual({ key: 'Offline' });
    expect(presenceText({}, NOW)).toEqual({ key: 'Offline' });
    expect(presenceText({ last_active: 'hôm qua' }, NOW)).toEqual({ key: 'Offline' });
  });
});
