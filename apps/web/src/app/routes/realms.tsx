import { LogInIcon } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { RealmTable } from '@/features/cultivation/components/realm-table';
import { useMe } from '@/lib/auth';
import { useLoginDialog } from '@/lib/login-dialog';

export function RealmsRoute() {
  const { data: me } = useMe();
  const { openLogin } = useLoginDialog();
  return (
    <>
      <PageHeader
        title="Bảng cảnh giới"
        description="Từ Luyện Khí đến Tiên Nhân: ngưỡng tu vi của từng cảnh giới."
        actions={
          me === null ? (
            <Button variant="outline" onClick={() => openLogin()}>
              <LogInIcon aria-hidden="true" />
              Đăng nhập để thấy cảnh giới của mình
            </Button>
          ) : null
        }
      />
      <RealmTable tuVi={me?.tuVi} />
    </>
  );
}
