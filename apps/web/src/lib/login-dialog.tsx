import * as React from 'react';
import { useSearchParams } from 'react-router';
import { LOGIN_SEARCH_PARAM } from '@/config/paths';

export type LoginTab = 'sign-in' | 'sign-up';

interface LoginDialogContextValue {
  open: boolean;
  tab: LoginTab;
  setTab: (tab: LoginTab) => void;
  openLogin: (tab?: LoginTab) => void;
  closeLogin: () => void;
}

const LoginDialogContext = React.createContext<LoginDialogContextValue | null>(null);

/** Owns the login dialog's state for the whole app; `?dang-nhap=1` in the URL also opens it. */
export function LoginDialogProvider({ children }: { children: React.ReactNode }) {
  const [searchParams, setSearchParams] = useSearchParams();
  const [state, setState] = React.useState<{ open: boolean; tab: LoginTab }>({
    open: false,
    tab: 'sign-in',
  });
  const openedByUrl = searchParams.get(LOGIN_SEARCH_PARAM) === '1';
  const open = state.open || openedByUrl;

  const openLogin = React.useCallback((tab: LoginTab = 'sign-in') => {
    setState({ open: true, tab });
  }, []);

  const setTab = React.useCallback((tab: LoginTab) => {
    setState((current) => ({ ...current, tab }));
  }, []);

  const closeLogin = React.useCallback(() => {
    setState((current) => ({ ...current, open: false }));
    if (openedByUrl) {
      setSearchParams(
        (current) => {
          const next = new URLSearchParams(current);
          next.delete(LOGIN_SEARCH_PARAM);
          return next;
        },
        { replace: true },
      );
    }
  }, [openedByUrl, setSearchParams]);

  const value = React.useMemo(
    () => ({ open, tab: state.tab, setTab, openLogin, closeLogin }),
    [open, state.tab, setTab, openLogin, closeLogin],
  );
  return <LoginDialogContext.Provider value={value}>{children}</LoginDialogContext.Provider>;
}

export function useLoginDialog(): LoginDialogContextValue {
  const context = React.useContext(LoginDialogContext);
  if (!context) throw new Error('useLoginDialog must be used within a LoginDialogProvider.');
  return context;
}

/** Spread on every button that opens the login dialog: reaching for it starts fetching the dialog's code. */
export const loginTrigger = { 'data-login-trigger': '' } as const;

const INTENT_EVENTS = ['pointerover', 'focusin', 'touchstart'] as const;

/**
 * Calls `prefetch` once, the first time a pointer, the keyboard focus or a finger reaches an element marked with
 * `loginTrigger`: the dialog's code is then usually there by the time the click lands.
 */
export function usePrefetchOnLoginIntent(prefetch: () => Promise<unknown>): void {
  React.useEffect(() => {
    const onIntent = (event: Event) => {
      if (!(event.target instanceof Element) || !event.target.closest('[data-login-trigger]'))
        return;
      stop();
      // A failed fetch (offline, new deploy) is retried by the click that opens the dialog.
      prefetch().catch(() => undefined);
    };
    const stop = () => {
      for (const type of INTENT_EVENTS) document.removeEventListener(type, onIntent, true);
    };
    for (const type of INTENT_EVENTS)
      document.addEventListener(type, onIntent, { capture: true, passive: true });
    return stop;
  }, [prefetch]);
}
