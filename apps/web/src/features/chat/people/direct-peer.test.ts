import type { ChannelMemberResponse } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { directPeerOf } from './direct-peer';
import { mentionedUserOf } from './mention-click';

function members(...ids: string[]): Record<string, ChannelMemberResponse> {
  return Object.fromEntries(ids.map((id) => [id, { user_id: id, user: { id, name: id } }]));
}

describe('directPeerOf', () => {
  it('is the other member of an unnamed two-person messaging channel', () => {
    const peer = directPeerOf(
      { type: 'messaging', data: { member_count: 2 } },
      members('toi', 'ban'),
      'toi',
    );
    expect(peer?.id).toBe('ban');
  });

  it('is null for a named group, a third member, a sect channel or a conversation the viewer is not in', () => {
    expect(
      directPeerOf(
        { type: 'messaging', data: { name: 'Luận kiếm' } },
        members('toi', 'ban'),
        'toi',
      ),
    ).toBeNull();
    expect(
      directPeerOf({ type: 'messaging', data: {} }, members('toi', 'ban', 'khach'), 'toi'),
    ).toBeNull();
    expect(
      directPeerOf({ type: 'messaging', data: { member_count: 3 } }, members('toi', 'ban'), 'toi'),
    ).toBeNull();
    expect(directPeerOf({ type: 'livestream', data: {} }, members('toi', 'ban'), 'toi')).toBeNull();
    expect(directPeerOf({ type: 'messaging', data: {} }, members('a', 'b'), 'toi')).toBeNull();
    expect(
      directPeerOf({ type: 'messaging', data: {} }, members('toi', 'ban'), undefined),
    ).toBeNull();
  });
});

describe('mentionedUserOf', () => {
  const twins = [
    { id: 'van-1', name: 'Bạch Vân' },
    { id: 'van-2', name: 'Bạch Vân' },
  ];

  it('picks the mentioned user by the span’s data-user-id, even when two share a name', () => {
    const span = document.createElement('span');
    span.dataset.userId = 'van-2';
    span.textContent = '@Bạch Vân';
    expect(mentionedUserOf(span, twins, twins[0])?.id).toBe('van-2');
  });

  it('falls back to the SDK’s match when the click did not land on a mention span', () => {
    expect(mentionedUserOf(document.createElement('div'), twins, twins[0])?.id).toBe('van-1');
    expect(mentionedUserOf(null, twins, undefined)).toBeUndefined();
  });
});
