import * as React from 'react';
import { Outlet, useLocation, useNavigationType, type RouteObject } from 'react-router';
import { SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { ChatSessionProvider, ReminderDueToasts } from '@/features/chat';
import { LoginDialog } from '@/features/auth/components/login-dialog';
import { LoginDialogProvider } from '@/lib/login-dialog';
import { AppHeader } from './app-header';
import { AppSidebar } from './app-sidebar';

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
      <LoginDialog />
      <ScrollReset />
    </LoginDialogProvider>
  );
}
