import { CloudOffIcon, RotateCwIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { StatusPanel } from './status-panel';
import { useT } from '@/i18n';

export function QueryError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const t = useT();
  return (
    <StatusPanel
      icon={CloudOffIcon}
      tone="warning"
      title={t('common.loadFailed')}
      description={error.message}
    >
      <Button variant="outline" onClick={onRetry}>
        <RotateCwIcon aria-hidden="true" />
        {t('common.retry')}
      </Button>
    </StatusPanel>
  );
}
