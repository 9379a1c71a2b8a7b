import { useCallback, useSyncExternalStore } from 'react';
// Type-only: the translations themselves load with the chat screen, not with the account menu.
import type { ChatLanguage } from '../i18n';

/** The language of the chat UI (stream-chat-react); the rest of the app is always Vietnamese. */
export type { ChatLanguage };

export const CHAT_LANGUAGE_STORAGE_KEY = 'chat-language';

export const CHAT_LANGUAGE_LABELS: Record<ChatLanguage, string> = {
  vi: 'Tiếng Việt',
  en: 'English',
};

const listeners = new Set<() => void>();
// Used when localStorage is unavailable (private mode): the choice then lasts for this page only.
let memoryFallback: ChatLanguage | null = null;

export function readChatLanguage(): ChatLanguage {
  try {
    return window.localStorage.getItem(CHAT_LANGUAGE_STORAGE_KEY) === 'en' ? 'en' : 'vi';
  } catch {
    return 'vi';
  }
}

export function writeChatLanguage(language: ChatLanguage): void {
  try {
    window.localStorage.setItem(CHAT_LANGUAGE_STORAGE_KEY, language);
  } catch {
    memoryFallback = language;
  }
  for (const listener of listeners) listener();
}

function snapshot(): ChatLanguage {
  return memoryFallback ?? readChatLanguage();
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  // Another tab switched the language.
  window.addEventListener('storage', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onChange);
  };
}

export function useChatLanguage(): [ChatLanguage, (language: ChatLanguage) => void] {
  const language = useSyncExternalStore(subscribe, snapshot, () => 'vi' as const);
  const setLanguage = useCallback((next: ChatLanguage) => writeChatLanguage(next), []);
  return [language, setLanguage];
}
