import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SignInPrompt } from '@/components/sign-in-prompt';
import { Skeleton } from '@/components/ui/skeleton';
import { ModerationAdmin } from '@/features/admin/components/moderation/moderation-admin';
import { useMe } from '@/lib/auth';
import { Forbidden } from './admin-users';

export function AdminModerationRoute() {
  const me = useMe();
  if (me.isPending) return <Skeleton className="h-80 w-full" aria-busy="true" />;
  if (me.isError) return <QueryError error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) {
    return (
      <SignInPrompt
        title="Cần đăng nhập"
        description="Trang kiểm duyệt chỉ dành cho người kiểm duyệt và quản trị viên. Vui lòng đăng nhập."
      />
    );
  }
  if (me.data.role !== 'admin' && me.data.role !== 'moderator') return <Forbidden />;
  return (
    <>
      <PageHeader
        title="Kiểm duyệt"
        description="Xử lý báo cáo, quản lý danh sách cấm, từ cấm và chế độ chậm của các kênh."
      />
      <ModerationAdmin />
    </>
  );
}
