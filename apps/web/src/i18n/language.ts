import { useCallback, useSyncExternalStore } from 'react';

/** The app's two languages: Vietnamese (the default) and English. */
export type Language = 'vi' | 'en';

export const LANGUAGES: readonly Language[] = ['vi', 'en'];

/**
 * Where the choice is kept. The key predates the app-wide switch (only the chat followed it then); it is kept so
 * that nobody's earlier choice is lost.
 */
export const LANGUAGE_STORAGE_KEY = 'chat-language';

/** Each language named in itself, so a reader who does not understand the current one still finds theirs. */
export const LANGUAGE_LABELS: Record<Language, string> = {
  vi: 'Tiếng Việt',
  en: 'English',
};

const listeners = new Set<() => void>();
// Used when localStorage is unavailable (private mode): the choice then lasts for this page only.
let memoryFallback: Language | null = null;

export function readLanguage(): Language {
  try {
    return window.localStorage.getItem(LANGUAGE_STORAGE_KEY) === 'en' ? 'en' : 'vi';
  } catch {
    return 'vi';
  }
}

export function currentLanguage(): Language {
  return memoryFallback ?? readLanguage();
}

/** `<html lang>` follows the language, so screen readers pronounce the page in it. */
function applyDocumentLanguage(): void {
  if (typeof document !== 'undefined') document.documentElement.lang = currentLanguage();
}

function notify(): void {
  applyDocumentLanguage();
  for (const listener of listeners) listener();
}

export function writeLanguage(language: Language): void {
  try {
    window.localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    memoryFallback = null;
  } catch {
    memoryFallback = language;
  }
  notify();
}

function onStorage(event: StorageEvent): void {
  // Another tab switched the language (a null key means that tab cleared the storage).
  if (event.key === LANGUAGE_STORAGE_KEY || event.key === null) notify();
}

export function subscribeLanguage(onChange: () => void): () => void {
  if (listeners.size === 0 && typeof window !== 'undefined') {
    window.addEventListener('storage', onStorage);
  }
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0 && typeof window !== 'undefined') {
      window.removeEventListener('storage', onStorage);
    }
  };
}

/** The chosen language and the way to change it; every reader in every tab follows at once. */
export function useLanguage(): [Language, (language: Language) => void] {
  const language = useSyncExternalStore(subscribeLanguage, currentLanguage, () => 'vi' as const);
  const setLanguage = useCallback((next: Language) => writeLanguage(next), []);
  return [language, setLanguage];
}

applyDocumentLanguage();
