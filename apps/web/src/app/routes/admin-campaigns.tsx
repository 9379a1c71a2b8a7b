import { PageHeader } from '@/components/page-header';
import { CampaignsAdmin } from '@/features/admin/components/campaigns/campaigns-admin';
import { ADMINS, SignedInScreen } from './signed-in-screen';

export function AdminCampaignsRoute() {
  return (
    <SignedInScreen
      signIn={{
        title: 'Cần đăng nhập',
        description: 'Trang chiến dịch chỉ dành cho quản trị viên. Vui lòng đăng nhập.',
      }}
      roles={ADMINS}
    >
      {() => (
        <>
          <PageHeader
            title="Chiến dịch"
            description="Gửi một tin nhắn đến nhiều đạo hữu cùng lúc, gọi tên và cảnh giới của từng người."
          />
          <CampaignsAdmin />
        </>
      )}
    </SignedInScreen>
  );
}
