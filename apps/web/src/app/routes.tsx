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

const handle = (title: string): RouteHandle => ({ title });

/** Every screen, each with the title the header and the tab show. */
const screens: RouteObject[] = [
  { path: paths.home.path, element: <HomeRoute />, handle: handle('Tổng quan') },
  {
    path: paths.realms.path,
    element: <LazyRealmsRoute />,
    handle: handle('Bảng cảnh giới'),
  },
  { path: paths.profile.path, element: <LazyProfileRoute />, handle: handle('Hồ sơ') },
  { path: paths.chat.path, element: <ChatRoute />, handle: handle('Trò chuyện') },
  {
    path: paths.reminders.path,
    element: <LazyRemindersScreen />,
    handle: handle('Nhắc nhở'),
  },
  {
    path: paths.admin.home.path,
    element: <LazyAdminHomeRoute />,
    handle: handle('Quản trị'),
  },
  {
    path: paths.admin.users.path,
    element: <LazyAdminUsersRoute />,
    handle: handle('Quản trị · Người dùng'),
  },
  {
    path: paths.admin.moderation.path,
    element: <LazyAdminModerationRoute />,
    handle: handle('Quản trị · Kiểm duyệt'),
  },
  {
    path: paths.admin.campaigns.path,
    element: <LazyAdminCampaignsRoute />,
    handle: handle('Quản trị · Chiến dịch'),
  },
  { path: '*', element: <NotFoundRoute />, handle: handle('Không tìm thấy trang') },
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
