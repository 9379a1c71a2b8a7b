import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CHAT_LANGUAGE_STORAGE_KEY, readChatLanguage, useChatLanguage } from './chat-language';

describe('chat language', () => {
  it('is Vietnamese until the cultivator picks English', () => {
    expect(readChatLanguage()).toBe('vi');
  });

  it('treats anything but "en" in storage as Vietnamese', () => {
    window.localStorage.setItem(CHAT_LANGUAGE_STORAGE_KEY, 'fr');
    expect(readChatLanguage()).toBe('vi');
  });

  it('remembers the choice in localStorage and updates every reader at once', () => {
    const first = renderHook(() => useChatLanguage());
    const second = renderHook(() => useChatLanguage());
    act(() => first.result.current[1]('en'));
    expect(window.localStorage.getItem(CHAT_LANGUAGE_STORAGE_KEY)).toBe('en');
    expect(first.result.current[0]).toBe('en');
    expect(second.result.current[0]).toBe('en');
    act(() => second.result.current[1]('vi'));
    expect(first.result.current[0]).toBe('vi');
  });

  it('follows a change made in another tab', () => {
    const { result } = renderHook(() => useChatLanguage());
    act(() => {
      window.localStorage.setItem(CHAT_LANGUAGE_STORAGE_KEY, 'en');
      window.dispatchEvent(new StorageEvent('storage', { key: CHAT_LANGUAGE_STORAGE_KEY }));
    });
    expect(result.current[0]).toBe('en');
  });
});
