import type * as React from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { lazyComponent } from '@/lib/lazy-component';

/**
 * Screens most visits never open, each in its own chunk: `/` only downloads the shell and the landing page
 * (docs/decisions/0008-web-code-splitting.md). The shell stays on screen while a chunk loads.
 */
function lazyScreen<Props extends object>(
  load: () => Promise<React.ComponentType<Props>>,
): React.FC<Props> {
  return lazyComponent(load, <Skeleton className="h-80 w-full" aria-busy="true" />);
}

export const LazyProfileRoute = lazyScreen(async () => (await import('./profile')).ProfileRoute);
export const LazyRealmsRoute = lazyScreen(async () => (await import('./realms')).RealmsRoute);
export const LazyAdminHomeRoute = lazyScreen(
  async () => (await import('./admin-home')).AdminHomeRoute,
);
export const LazyAdminUsersRoute = lazyScreen(
  async () => (await import('./admin-users')).AdminUsersRoute,
);
export const LazyAdminModerationRoute = lazyScreen(
  async () => (await import('./admin-moderation')).AdminModerationRoute,
);
export const LazyRemindersScreen = lazyScreen(
  async () => (await import('@/features/chat/reminders/reminders-screen')).RemindersScreen,
);
export const LazyDashboard = lazyScreen(
  async () => (await import('@/features/cultivation/components/dashboard')).Dashboard,
);
export const LazyAdminCampaignsRoute = lazyScreen(
  async () => (await import('./admin-campaigns')).AdminCampaignsRoute,
);
