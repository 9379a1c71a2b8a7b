import type { RouteObject } from 'react-router';
import { paths } from '@/config/paths';
import { RemindersScreen } from '@/features/chat';
import type { RouteHandle } from './layout/app-header';
import { RootLayout } from './layout/root-layout';
import { AdminCampaignsRoute } from './routes/admin-campaigns';
import { AdminModerationRoute } from './routes/admin-moderation';
import { AdminUsersRoute } from './routes/admin-users';
import { ChatRoute } from './routes/chat';
import { HomeRoute } from './routes/home';
import { NotFoundRoute } from './routes/not-found';
import { ProfileRoute } from './routes/profile';
import { RealmsRoute } from './routes/realms';
import { RouteError } from './routes/route-error';

const handle = (title: string): RouteHandle => ({ title });

export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        errorElement: <RouteError />,
        children: [
          { path: paths.home.path, element: <HomeRoute />, handle: handle('Tổng quan') },
          { path: paths.realms.path, element: <RealmsRoute />, handle: handle('Bảng cảnh giới') },
          { path: paths.profile.path, element: <ProfileRoute />, handle: handle('Hồ sơ') },
          { path: paths.chat.path, element: <ChatRoute />, handle: handle('Trò chuyện') },
          { path: paths.reminders.path, element: <RemindersScreen />, handle: handle('Nhắc nhở') },
          {
            path: paths.admin.users.path,
            element: <AdminUsersRoute />,
            handle: handle('Quản trị · Người dùng'),
          },
          {
            path: paths.admin.moderation.path,
            element: <AdminModerationRoute />,
            handle: handle('Quản trị · Kiểm duyệt'),
          },
          {
            path: paths.admin.campaigns.path,
            element: <AdminCampaignsRoute />,
            handle: handle('Quản trị · Chiến dịch'),
          },
          { path: '*', element: <NotFoundRoute />, handle: handle('Không tìm thấy trang') },
        ],
      },
    ],
  },
];
