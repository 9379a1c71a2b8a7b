import * as React from 'react';
import { Outlet, ScrollRestoration } from 'react-router';
import { SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { ChatSessionProvider, ReminderDueToasts } from '@/features/chat';
import { LoginDialogProvider, useLoginDialog } from '@/lib/login-dialog';
import { AppHeader } from './app-header';
import { AppSidebar } from './app-sidebar';

// The dialog and better-auth's client load the first time someone opens it, not with the first screen.
const LoginDialog = React.lazy(async () => ({
  default: (await import('@/features/auth/components/login-dialog')).LoginDialog,
}));

function DeferredLoginDialog() {
  const { open } = useLoginDialog();
  const [wanted, setWanted] = React.useState(open);
  if (open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <React.Suspense fallback={null}>
      <LoginDialog />
    </React.Suspense>
  );
}

/** Every screen sits in this shell: sidebar, header, and the login dialog any screen can open. */
export function RootLayout() {
  return (
    <LoginDialogProvider>
      <ChatSessionProvider>
        <ReminderDueToasts />
        <SidebarProvider>
          <AppSidebar />
          <SidebarInset>
            <AppHeader />
            <div className="flex-1 px-4 py-6 sm:px-6 desktop:px-10 desktop:py-8">
              <div className="mx-auto w-full max-w-6xl">
                <Outlet />
              </div>
            </div>
          </SidebarInset>
        </SidebarProvider>
      </ChatSessionProvider>
      <DeferredLoginDialog />
      <ScrollRestoration />
    </LoginDialogProvider>
  );
}
