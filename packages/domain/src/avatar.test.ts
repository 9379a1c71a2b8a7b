import { describe, expect, it } from 'vitest';
import {
  AVATAR_MESSAGE,
  avatarInitials,
  avatarSource,
  checkAvatar,
  isAllowedAvatar,
} from './avatar.ts';

describe('checkAvatar', () => {
  it.each([
    ['/chat/uploads/app-1/f_8c1d/dan-duoc.png'],
    ['/chat/uploads/app-1/f_8c1d/%C4%91an-d%C6%B0%E1%BB%A3c.png'],
    ['/chat/uploads/app-1/3f0c2a9e-1b7d-4c1e-9d51-2f0b5b4f8a11/Dan-duoc.png?oh=600&ow=800'],
  ])('accepts the uploaded file %s', (path) => {
    expect(checkAvatar(path)).toEqual({ ok: true, image: path });
    expect(isAllowedAvatar(path)).toBe(true);
  });

  it('clears the avatar with null or an empty string', () => {
    expect(checkAvatar(null)).toEqual({ ok: true, image: null });
    expect(checkAvatar('')).toEqual({ ok: true, image: null });
  });

  it.each([
    ['javascript:alert(1)'],
    ['JaVaScRiPt:alert(1)'],
    ['data:image/svg+xml,<svg onload="alert(1)"/>'],
    ['blob:http://localhost:3000/1234'],
    ['https://tracker.example/pixel.gif'],
    ['http://localhost:3000/chat/uploads/a/b/c.png'],
    ['//evil.example/chat/uploads/a.png'],
    ['/api/auth/sign-out'],
    ['/chat/uploads/'],
    ['/chat/uploads/a//b.png'],
    ['/chat/uploads/../../api/me'],
    ['/chat/uploads/%2e%2e/%2e%2e/api/me'],
    ['/chat/uploads/a%2Fb/c.png'],
    ['/chat/uploads/a%5Cb/c.png'],
    ['/chat/uploads/a/b/c.png?x=<script>'],
    ['/chat/uploads/a/b/c.png?oh=1?ow=2'],
    ['/chat/uploads/a/b/c.png?'],
    ['/chat/uploads/a/b/c.png#x'],
    ['/chat/uploads/a/b/c).png'],
    ["/chat/uploads/a/b/c'.png"],
    ['/chat/uploads/a/b/c d.png'],
    ['/chat/uploads/a/b/%E0%A4%A.png'],
    [`/chat/uploads/a/b/${'x'.repeat(600)}.png`],
    [7],
    [{ url: '/chat/uploads/a/b/c.png' }],
  ])('refuses %j', (value) => {
    expect(checkAvatar(value)).toEqual({ ok: false, message: AVATAR_MESSAGE });
    expect(isAllowedAvatar(value)).toBe(false);
  });
});

describe('avatarSource', () => {
  const path = '/chat/uploads/app/f1/anh.png?oh=200&ow=320';

  it('loads an allowed path as it is', () => {
    expect(avatarSource(path)).toBe(path);
  });

  it.each(['https://daohuu.vn', 'http://localhost:3000', 'http://127.0.0.1:3101'])(
    'loads the path of an absolute URL on %s, as the chat carries it, from the page’s own origin',
    (origin) => {
      expect(avatarSource(`${origin}${path}`)).toBe(path);
    },
  );

  it.each([
    ['another route of ours', 'https://daohuu.vn/api/me'],
    ['a path that climbs out of the uploads', 'https://daohuu.vn/chat/uploads/../../api/me'],
    ['an escaped climb', 'https://daohuu.vn/chat/uploads/%2e%2e/%2e%2e/api/me'],
    ['a protocol-relative URL', `//evil.example${path}`],
    ['another scheme', `javascript://x${path}`],
    ['a URL without a path', 'https://daohuu.vn?chat/uploads/a/b'],
    ['a backslash in the authority', `https://evil.example\\daohuu.vn${path}`],
    ['not a string', 42],
  ])('refuses %s', (_, value) => {
    expect(avatarSource(value)).toBeUndefined();
  });
});

describe('avatarInitials', () => {
  it('takes the first letter of the last two words, in capitals', () => {
    expect(avatarInitials('Bạch Vân')).toBe('BV');
    expect(avatarInitials('  lục   thanh y ')).toBe('TY');
    expect(avatarInitials('đạo')).toBe('Đ');
  });

  it('keeps a letter made of two code units whole', () => {
    expect(avatarInitials('𝒜lpha 𝒷eta')).toBe('𝒜𝒷');
  });

  it('shows a question mark for a blank name', () => {
    expect(avatarInitials('')).toBe('?');
    expect(avatarInitials('   ')).toBe('?');
  });
});
