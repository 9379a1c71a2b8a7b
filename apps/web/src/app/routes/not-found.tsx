import { CompassIcon } from 'lucide-react';
import { Link } from 'react-router';
import { StatusPanel } from '@/components/status-panel';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';

export function NotFoundRoute() {
  return (
    <StatusPanel
      icon={CompassIcon}
      title="Không tìm thấy trang"
      description="Con đường đạo hữu tìm không tồn tại, hoặc đã bị trận pháp che giấu."
    >
      <Button asChild>
        <Link to={paths.home.getHref()}>Về Tổng quan</Link>
      </Button>
    </StatusPanel>
  );
}
