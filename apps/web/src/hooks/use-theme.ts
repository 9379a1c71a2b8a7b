import { useCallback, useEffect, useSyncExternalStore } from 'react';
import { DARK_SCHEME_QUERY, useMediaQuery } from './use-media-query';

export type Theme = 'light' | 'dark' | 'system';

// Same key and values as public/first-paint.js (loaded by index.html), which applies the theme before first paint.
const STORAGE_KEY = 'theme';
const listeners = new Set<() => void>();

function readTheme(): Theme {
  try {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    return saved === 'light' || saved === 'dark' ? saved : 'system';
  } catch {
    return 'system';
  }
}

function subscribe(onChange: () => void): () => void {
  listeners.add(onChange);
  // Another tab changed the theme.
  window.addEventListener('storage', onChange);
  return () => {
    listeners.delete(onChange);
    window.removeEventListener('storage', onChange);
  };
}

function writeTheme(theme: Theme): void {
  try {
    window.localStorage.setItem(STORAGE_KEY, theme);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
  for (const listener of listeners) listener();
}

export function useTheme(): {
  theme: Theme;
  resolvedTheme: 'light' | 'dark';
  setTheme: (theme: Theme) => void;
} {
  const theme = useSyncExternalStore(subscribe, readTheme, () => 'system' as const);
  const systemDark = useMediaQuery(DARK_SCHEME_QUERY);
  const resolvedTheme = theme === 'system' ? (systemDark ? 'dark' : 'light') : theme;
  const setTheme = useCallback((next: Theme) => writeTheme(next), []);
  return { theme, resolvedTheme, setTheme };
}

/** Keeps <html> in step with the chosen theme; mounted once at the root. */
export function useApplyTheme(): void {
  const { resolvedTheme } = useTheme();
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('dark', resolvedTheme === 'dark');
    root.style.colorScheme = resolvedTheme;
  }, [resolvedTheme]);
}
