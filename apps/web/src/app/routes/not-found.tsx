import { CompassIcon } from 'lucide-react';
import { Link } from 'react-router';
import { StatusPanel } from '@/components/status-panel';
import { Button } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { useT } from '@/i18n';

export function NotFoundRoute() {
  const t = useT();
  return (
    <StatusPanel
      icon={CompassIcon}
      title={t('status.notFoundTitle')}
      description={t('status.notFoundDescription')}
    >
      <Button asChild>
        <Link to={paths.home.getHref()}>{t('common.backHome')}</Link>
      </Button>
    </StatusPanel>
  );
}
