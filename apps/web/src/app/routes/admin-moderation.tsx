import { PageHeader } from '@/components/page-header';
import { ModerationAdmin } from '@/features/admin/components/moderation/moderation-admin';
import { SignedInScreen, STAFF } from './signed-in-screen';

export function AdminModerationRoute() {
  return (
    <SignedInScreen
      signIn={{
        title: 'Cần đăng nhập',
        description:
          'Trang kiểm duyệt chỉ dành cho người kiểm duyệt và quản trị viên. Vui lòng đăng nhập.',
      }}
      roles={STAFF}
    >
      {() => (
        <>
          <PageHeader
            title="Kiểm duyệt"
            description="Xử lý báo cáo, quản lý danh sách cấm, từ cấm và chế độ chậm của các kênh."
          />
          <ModerationAdmin />
        </>
      )}
    </SignedInScreen>
  );
}
