import { describe, expect, it } from 'vitest';
import { describeUnreadCount, formatUnreadCount } from './unread-count';

describe('formatUnreadCount', () => {
  it('shows no badge when nothing is unread', () => {
    expect(formatUnreadCount(0)).toBeNull();
  });

  it('prints small counts as they are', () => {
    expect(formatUnreadCount(1)).toBe('1');
    expect(formatUnreadCount(99)).toBe('99');
  });

  it('caps large counts at "99+" so the badge keeps its size', () => {
    expect(formatUnreadCount(100)).toBe('99+');
    expect(formatUnreadCount(12_345)).toBe('99+');
  });

  it('ignores values a broken event could carry', () => {
    expect(formatUnreadCount(-3)).toBeNull();
    expect(formatUnreadCount(Number.NaN)).toBeNull();
    expect(formatUnreadCount(Number.POSITIVE_INFINITY)).toBeNull();
    expect(formatUnreadCount(2.7)).toBe('2');
  });
});

describe('describeUnreadCount', () => {
  it('reads the count out in Vietnamese, uncapped', () => {
    expect(describeUnreadCount(3)).toBe('3 tin nhắn chưa đọc');
    expect(describeUnreadCount(250)).toBe('250 tin nhắn chưa đọc');
  });
});
