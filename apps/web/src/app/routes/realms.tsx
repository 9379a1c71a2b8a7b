import { LogInIcon } from 'lucide-react';
import { PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { RealmTable } from '@/features/cultivation/components/realm-table';
import { useMe } from '@/lib/auth';
import { useLoginDialog, loginTrigger } from '@/lib/login-dialog';
import { useT } from '@/i18n';

export function RealmsRoute() {
  const t = useT();
  const { data: me } = useMe();
  const { openLogin } = useLoginDialog();
  return (
    <>
      <PageHeader
        title={t('realms.title')}
        description={t('realms.description')}
        actions={
          me === null ? (
            <Button variant="outline" {...loginTrigger} onClick={() => openLogin()}>
              <LogInIcon aria-hidden="true" />
              {t('realms.signInToSee')}
            </Button>
          ) : null
        }
      />
      <RealmTable tuVi={me?.tuVi} />
    </>
  );
}
