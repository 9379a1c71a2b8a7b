import { describe, expect, it } from 'vitest';
import { resolveBaseURL } from './chat-client';

describe('resolveBaseURL', () => {
  it("keeps the stream-chat default (Stream's hosted API) when the server gives none", () => {
    expect(resolveBaseURL(null, 'http://localhost:3000')).toBeUndefined();
  });

  it('keeps an absolute URL, without a trailing slash', () => {
    expect(resolveBaseURL('http://127.0.0.1:3000/chat/', 'http://localhost:3000')).toBe(
      'http://127.0.0.1:3000/chat',
    );
  });

  it('makes a path absolute against the page, since the websocket URL is derived from it', () => {
    expect(resolveBaseURL('/chat', 'https://daohuu.example')).toBe('https://daohuu.example/chat');
  });
});
