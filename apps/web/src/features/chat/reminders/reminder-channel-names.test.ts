import type { ChannelMemberResponse } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { channelDisplayName, unnamedChannel } from './reminder-channel-names';

function members(...people: [string, string][]): Record<string, ChannelMemberResponse> {
  return Object.fromEntries(people.map(([id, name]) => [id, { user_id: id, user: { id, name } }]));
}

describe('channelDisplayName', () => {
  it('uses the channel’s own name for a sect channel', () => {
    const sect = { type: 'sect', data: { name: 'Quảng Trường' } };
    expect(channelDisplayName(sect, members(), 'lam')).toBe('Quảng Trường');
  });

  it('names a 1:1 conversation after the other cultivator', () => {
    const dm = { type: 'messaging', data: { member_count: 2 } };
    const both = members(['lam', 'Lâm Phong'], ['van', 'Bạch Vân']);
    expect(channelDisplayName(dm, both, 'lam')).toBe('Bạch Vân');
    expect(channelDisplayName(dm, both, 'van')).toBe('Lâm Phong');
  });

  it('names an unnamed group after its other members, three at most', () => {
    const group = { type: 'messaging', data: { member_count: 5 } };
    const five = members(['lam', 'Lâm'], ['a', 'An'], ['b', 'Bình'], ['c', 'Cúc'], ['d', 'Dũng']);
    expect(channelDisplayName(group, five, 'lam')).toBe('An, Bình, Cúc…');
  });

  it('falls back to "Cuộc trò chuyện" when nothing names the channel', () => {
    expect(channelDisplayName({ type: 'messaging', data: {} }, undefined, 'lam')).toBe(
      'Cuộc trò chuyện',
    );
    expect(unnamedChannel()).toBe('Cuộc trò chuyện');
  });

  it('ignores a blank channel name', () => {
    const dm = { type: 'messaging', data: { name: '  ', member_count: 2 } };
    expect(channelDisplayName(dm, members(['lam', 'Lâm'], ['van', 'Vân']), 'lam')).toBe('Vân');
  });
});
