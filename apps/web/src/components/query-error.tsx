import { CloudOffIcon, RotateCwIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { StatusPanel } from './status-panel';

export function QueryError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <StatusPanel
      icon={CloudOffIcon}
      tone="warning"
      title="Không thể tải dữ liệu"
      description={error.message}
    >
      <Button variant="outline" onClick={onRetry}>
        <RotateCwIcon aria-hidden="true" />
        Thử lại
      </Button>
    </StatusPanel>
  );
}
