import * as React from 'react';
import { Outlet, useLocation, useNavigationType, type RouteObject } from 'react-router';
import { SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { ChatSessionProvider } from '@/features/chat';
import { useMe } from '@/lib/auth';
import { lazyWhenOnline, optionalPart } from '@/lib/lazy-component';
import { LoginDialogProvider, useLoginDialog, usePrefetchOnLoginIntent } from '@/lib/login-dialog';
import { AppHeader } from './app-header';
import { AppSidebar } from './app-sidebar';

const loadLoginDialog = () => import('@/features/auth/components/login-dialog');
const LoginDialog = lazyWhenOnline(async () => (await loadLoginDialog()).LoginDialog);

/**
 * The login dialog (Radix's dialog with its focus scope and scroll lock, the tabs, both forms) is not part of any
 * page's first load. Its code is fetched when a sign-in button is first reached for (pointer over it, focus, touch),
 * or at once when the page opens with `?dang-nhap=1`; the dialog mounts when first opened, already open, and then
 * stays mounted (as lazyDialog does, lib/lazy-component.tsx), so closing keeps Radix's exit animation and focus
 * return (docs/decisions/0008-web-code-splitting.md).
 */
function DeferredLoginDialog() {
  const { open } = useLoginDialog();
  const [opened, setOpened] = React.useState(open);
  if (open && !opened) setOpened(true);
  usePrefetchOnLoginIntent(loadLoginDialog);
  if (!opened) return null;
  return (
    <React.Suspense fallback={null}>
      <LoginDialog />
    </React.Suspense>
  );
}

// Only a signed-in cultivator has reminders: a guest's first load does not carry the code that announces them.
const LazyReminderDueToasts = optionalPart(
  async () => (await import('@/features/chat/reminders/reminder-due-toasts')).ReminderDueToasts,
);

function ReminderDueToasts() {
  const { data: me } = useMe();
  return me ? <LazyReminderDueToasts /> : null;
}

/** A new screen starts at its top; back and forward keep the browser's own scroll restoration. */
function ScrollReset() {
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  React.useLayoutEffect(() => {
    if (navigationType !== 'POP') window.scrollTo(0, 0);
  }, [pathname, navigationType]);
  return null;
}

/** Every screen sits in this shell: sidebar, header, and the login dialog any screen can open. */
export function RootLayout({ screens }: { screens: RouteObject[] }) {
  return (
    <LoginDialogProvider>
      <ChatSessionProvider>
        <ReminderDueToasts />
        <SidebarProvider>
          <AppSidebar />
          <SidebarInset>
            <AppHeader routes={screens} />
            <div className="flex-1 px-4 py-6 sm:px-6 desktop:px-10 desktop:py-8">
              <div className="mx-auto w-full max-w-6xl">
                <Outlet />
              </div>
            </div>
          </SidebarInset>
        </SidebarProvider>
      </ChatSessionProvider>
      <DeferredLoginDialog />
      <ScrollReset />
    </LoginDialogProvider>
  );
}
