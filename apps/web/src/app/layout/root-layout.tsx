import { Outlet, ScrollRestoration } from 'react-router';
import { SidebarInset, SidebarProvider } from '@/components/ui/sidebar';
import { LoginDialog } from '@/features/auth/components/login-dialog';
import { ChatSessionProvider, ReminderDueToasts } from '@/features/chat';
import { LoginDialogProvider } from '@/lib/login-dialog';
import { AppHeader } from './app-header';
import { AppSidebar } from './app-sidebar';

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
      <LoginDialog />
      <ScrollRestoration />
    </LoginDialogProvider>
  );
}
