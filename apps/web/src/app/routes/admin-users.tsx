import { PageHeader } from '@/components/page-header';
import { UsersAdmin } from '@/features/admin/components/users-admin';
import { ADMINS, SignedInScreen } from './signed-in-screen';

export function AdminUsersRoute() {
  return (
    <SignedInScreen
      signIn={{
        title: 'Cần đăng nhập',
        description: 'Trang quản trị chỉ dành cho quản trị viên. Vui lòng đăng nhập.',
      }}
      roles={ADMINS}
    >
      {() => (
        <>
          <PageHeader
            title="Người dùng"
            description="Tìm người dùng, chỉnh tu vi, số dư và vai trò của họ."
          />
          <UsersAdmin />
        </>
      )}
    </SignedInScreen>
  );
}
