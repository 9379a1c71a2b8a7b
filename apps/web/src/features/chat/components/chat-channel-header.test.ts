import { describe, expect, it } from 'vitest';
import { memberCountOf } from './chat-channel-header';

describe('memberCountOf', () => {
  it("prefers the server's member_count, which counts members that were not loaded", () => {
    expect(memberCountOf(1234, { a: {}, b: {} })).toBe(1234);
  });

  it('falls back to the members loaded with the channel', () => {
    expect(memberCountOf(undefined, { a: {}, b: {}, c: {} })).toBe(3);
    expect(memberCountOf(undefined, undefined)).toBe(0);
  });
});
