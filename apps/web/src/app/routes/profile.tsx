import { PageHeader } from '@/components/page-header';
import { QueryError } from '@/components/query-error';
import { SignInPrompt } from '@/components/sign-in-prompt';
import { Skeleton } from '@/components/ui/skeleton';
import { BlockedUsersSection } from '@/features/chat/people/blocked-users-section';
import { AvatarForm } from '@/features/profile/components/avatar-form';
import { BreakthroughSetting } from '@/features/profile/components/breakthrough-setting';
import { ChangePasswordForm } from '@/features/profile/components/change-password-form';
import { EditDaoHieuForm } from '@/features/profile/components/edit-dao-hieu-form';
import { ProfileDetails } from '@/features/profile/components/profile-details';
import { useMe } from '@/lib/auth';

export function ProfileRoute() {
  const me = useMe();
  if (me.isPending) return <Skeleton className="h-80 w-full" aria-busy="true" />;
  if (me.isError) return <QueryError error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) {
    return (
      <SignInPrompt
        title="Đăng nhập để xem hồ sơ"
        description="Hồ sơ ghi lại đạo hiệu, tu vi, cảnh giới và số dư của đạo hữu."
      />
    );
  }
  return (
    <>
      <PageHeader title="Hồ sơ" description="Thông tin tu luyện của đạo hữu." />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
        <ProfileDetails profile={me.data} />
        <div className="grid gap-6">
          <EditDaoHieuForm profile={me.data} />
          <AvatarForm profile={me.data} />
          <ChangePasswordForm />
          <BreakthroughSetting />
          <BlockedUsersSection />
        </div>
      </div>
    </>
  );
}
