import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SignInPrompt } from '@/components/sign-in-prompt';
import { Skeleton } from '@/components/ui/skeleton';
import { CampaignsAdmin } from '@/features/admin/components/campaigns/campaigns-admin';
import { useMe } from '@/lib/auth';
import { Forbidden } from './admin-users';

export function AdminCampaignsRoute() {
  const me = useMe();
  if (me.isPending) return <Skeleton className="h-80 w-full" aria-busy="true" />;
  if (me.isError) return <QueryError error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) {
    return (
      <SignInPrompt
        title="Cần đăng nhập"
        description="Trang chiến dịch chỉ dành cho quản trị viên. Vui lòng đăng nhập."
      />
    );
  }
  if (me.data.role !== 'admin') return <Forbidden />;
  return (
    <>
      <PageHeader
        title="Chiến dịch"
        description="Gửi một tin nhắn đến nhiều đạo hữu cùng lúc, gọi tên và cảnh giới của từng người."
      />
      <CampaignsAdmin />
    </>
  );
}
