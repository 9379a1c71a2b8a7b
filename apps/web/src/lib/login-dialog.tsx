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
