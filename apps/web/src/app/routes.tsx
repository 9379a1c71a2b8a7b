import { Outlet, type RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import type { RouteHandle } from './layout/app-header';
import { RootLayout } from './layout/root-layout';
import { ChatRoute } from './routes/chat';
import { HomeRoute } from './routes/home';
import {
  LazyAdminCampaignsRoute,
  LazyAdminHomeRoute,
  LazyAdminModerationRoute,
  LazyAdminUsersRoute,
  LazyProfileRoute,
  LazyRealmsRoute,
  LazyRemindersScreen,
} from './routes/lazy-screens';
import { NotFoundRoute } from './routes/not-found';
import { RouteErrorBoundary } from './routes/route-error';

const handle = (title: RouteHandle['title']): RouteHandle => ({ title });

/** Every screen, each with the title the header and the tab show. */
const screens: RouteObject[] = [
  { path: paths.home.path, element: <HomeRoute />, handle: handle('nav.overview') },
  {
    path: paths.realms.path,
    element: <LazyRealmsRoute />,
    handle: handle('nav.realms'),
  },
  { path: paths.profile.path, element: <LazyProfileRoute />, handle: handle('nav.profile') },
  { path: paths.chat.path, element: <ChatRoute />, handle: handle('nav.chat') },
  {
    path: paths.reminders.path,
    element: <LazyRemindersScreen />,
    handle: handle('nav.reminders'),
  },
  {
    path: paths.admin.home.path,
    element: <LazyAdminHomeRoute />,
    handle: handle('nav.admin'),
  },
  {
    path: paths.admin.users.path,
    element: <LazyAdminUsersRoute />,
    handle: handle('nav.adminUsers'),
  },
  {
    path: paths.admin.moderation.path,
    element: <LazyAdminModerationRoute />,
    handle: handle('nav.adminModeration'),
  },
  {
    path: paths.admin.campaigns.path,
    element: <LazyAdminCampaignsRoute />,
    handle: handle('nav.adminCampaigns'),
  },
  { path: '*', element: <NotFoundRoute />, handle: handle('nav.notFound') },
];

export const routes: RouteObject[] = [
  {
    element: <RootLayout screens={screens} />,
    children: [
      {
        element: (
          <RouteErrorBoundary>
            <Outlet />
          </RouteErrorBoundary>
        ),
        children: screens,
      },
    ],
  },
];
