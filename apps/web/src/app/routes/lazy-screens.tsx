import type * as React from 'react';
import { Skeleton } from '@/components/ui/skeleton';
import { withCatalogueParts } from '@/i18n';
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

export const LazyProfileRoute = lazyScreen(
  withCatalogueParts(async () => (await import('./profile')).ProfileRoute, 'profile'),
);
export const LazyRealmsRoute = lazyScreen(
  withCatalogueParts(async () => (await import('./realms')).RealmsRoute, 'cultivation'),
);
export const LazyAdminHomeRoute = lazyScreen(
  withCatalogueParts(async () => (await import('./admin-home')).AdminHomeRoute, 'admin', 'profile'),
);
export const LazyAdminUsersRoute = lazyScreen(
  withCatalogueParts(
    async () => (await import('./admin-users')).AdminUsersRoute,
    'admin',
    'profile',
  ),
);
export const LazyAdminModerationRoute = lazyScreen(
  withCatalogueParts(
    async () => (await import('./admin-moderation')).AdminModerationRoute,
    'admin',
    'profile',
  ),
);
export const LazyRemindersScreen = lazyScreen(
  async () => (await import('@/features/chat/reminders/reminders-screen')).RemindersScreen,
);
export const LazyDashboard = lazyScreen(
  withCatalogueParts(
    async () => (await import('@/features/cultivation/components/dashboard')).Dashboard,
    'cultivation',
  ),
);
export const LazyAdminCampaignsRoute = lazyScreen(
  withCatalogueParts(
    async () => (await import('./admin-campaigns')).AdminCampaignsRoute,
    'admin',
    'profile',
  ),
);
