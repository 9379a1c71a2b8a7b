import { ShieldOffIcon } from 'lucide-react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SignInPrompt } from '@/components/sign-in-prompt';
import { StatusPanel } from '@/components/status-panel';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { UsersAdmin } from '@/features/admin/components/users-admin';
import { useMe } from '@/lib/auth';

export function Forbidden() {
  return (
    <StatusPanel
      icon={ShieldOffIcon}
      tone="warning"
      title="Không có quyền truy cập"
      description="Đạo hữu không có quyền truy cập trang này."
    >
      <Button variant="outline" asChild>
        <Link to={paths.home.getHref()}>Về Tổng quan</Link>
      </Button>
    </StatusPanel>
  );
}

export function AdminUsersRoute() {
  const me = useMe();
  if (me.isPending) return <Skeleton className="h-80 w-full" aria-busy="true" />;
  if (me.isError) return <QueryError error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) {
    return (
      <SignInPrompt
        title="Cần đăng nhập"
        description="Trang quản trị chỉ dành cho quản trị viên. Vui lòng đăng nhập."
      />
    );
  }
  if (me.data.role !== 'admin') return <Forbidden />;
  return (
    <>
      <PageHeader
        title="Người dùng"
        description="Tìm người dùng, chỉnh tu vi, số dư và vai trò của họ."
      />
      <UsersAdmin />
    </>
  );
}
