import { describe, expect, it } from 'vitest';
import { ownCapabilities, permissionsFor, type Actor } from './access.ts';
import { BUILTIN_CHANNEL_TYPES } from '../channel-types.ts';

const actor = (role: string, isServer = false): Actor => ({
  appId: 'a',
  userId: 'u',
  role,
  isServer,
  connectionId: null,
});
const member = { channelRole: 'channel_member', banned: false };
const owner = { channelRole: 'owner', banned: false };

function can(
  type: string,
  who: Actor,
  membership: typeof member | null,
  permission: string,
): boolean {
  return permissionsFor(BUILTIN_CHANNEL_TYPES[type]!, who, membership).has(permission as never);
}

describe('channel permissions', () => {
  it.each([
    ['messaging', 'user', null, 'read-channel', false],
    ['messaging', 'user', null, 'create-channel', true],
    ['messaging', 'user', member, 'read-channel', true],
    ['messaging', 'user', member, 'send-message', true],
    ['messaging', 'user', member, 'delete-any-message', false],
    ['messaging', 'user', owner, 'delete-any-message', true],
    ['messaging', 'admin', null, 'read-channel', true],
    ['messaging', 'guest', null, 'create-channel', false],
    ['livestream', 'anonymous', null, 'read-channel', true],
    ['livestream', 'anonymous', null, 'send-message', false],
    ['livestream', 'user', null, 'read-channel', true],
    ['livestream', 'user', null, 'send-message', false],
    ['livestream', 'user', member, 'send-message', true],
    ['team', 'user', null, 'read-channel', false],
    ['commerce', 'guest', null, 'create-channel', true],
    ['gaming', 'user', member, 'upload-file', false],
  ] as const)(
    '%s: a %s (membership %o) has %s: %s',
    (type, role, membership, permission, expected) => {
      expect(can(type, actor(role), membership, permission)).toBe(expected);
    },
  );

  it('takes away member rights from a banned member', () => {
    expect(
      can(
        'messaging',
        actor('user'),
        { channelRole: 'channel_member', banned: true },
        'send-message',
      ),
    ).toBe(false);
  });

  it('gives server-side calls every permission', () => {
    expect(can('messaging', actor('user', true), null, 'delete-channel')).toBe(true);
  });

  it('reports only capabilities the channel config enables', () => {
    const livestream = BUILTIN_CHANNEL_TYPES.livestream!;
    const capabilities = ownCapabilities(
      permissionsFor(livestream, actor('user'), member),
      livestream.config,
    );
    expect(capabilities).toContain('send-message');
    expect(capabilities).not.toContain('typing-events');
    expect(capabilities).not.toContain('read-events');
    const messaging = BUILTIN_CHANNEL_TYPES.messaging!;
    expect(
      ownCapabilities(permissionsFor(messaging, actor('user'), member), messaging.config),
    ).toEqual(
      expect.arrayContaining([
        'send-message',
        'send-reaction',
        'typing-events',
        'read-events',
        'upload-file',
        'quote-message',
      ]),
    );
  });
});
