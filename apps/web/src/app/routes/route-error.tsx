import { TriangleAlertIcon } from 'lucide-react';
import { StatusPanel } from '@/components/status-panel';
import { Button } from '@/components/ui/button';

/** Last line of defence when a screen throws while rendering. */
export function RouteError() {
  return (
    <StatusPanel
      icon={TriangleAlertIcon}
      tone="warning"
      title="Đã có lỗi xảy ra"
      description="Trang này gặp sự cố ngoài ý muốn. Vui lòng tải lại trang."
    >
      <Button variant="outline" onClick={() => window.location.reload()}>
        Tải lại trang
      </Button>
    </StatusPanel>
  );
}
