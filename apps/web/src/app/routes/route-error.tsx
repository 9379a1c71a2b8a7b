import { TriangleAlertIcon } from 'lucide-react';
import { StatusPanel } from '@/components/status-panel';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';

/** Last line of defence when a screen throws while rendering. */
export function RouteError() {
  const t = useT();
  return (
    <StatusPanel
      icon={TriangleAlertIcon}
      tone="warning"
      title={t('status.crashTitle')}
      description={t('status.crashDescription')}
    >
      <Button variant="outline" onClick={() => window.location.reload()}>
        {t('status.reload')}
      </Button>
    </StatusPanel>
  );
}
