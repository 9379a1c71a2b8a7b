import { PageHeader } from '@/components/page-header';
import { CampaignsAdmin } from '@/features/admin/components/campaigns/campaigns-admin';
import { ADMINS, SignedInScreen } from './signed-in-screen';
import { useT } from '@/i18n';

export function AdminCampaignsRoute() {
  const t = useT();
  return (
    <SignedInScreen
      signIn={{
        title: t('common.signInRequired'),
        description: t('adminHome.campaignsSignIn'),
      }}
      roles={ADMINS}
    >
      {() => (
        <>
          <PageHeader
            title={t('adminHome.campaignsTitle')}
            description={t('adminHome.campaignsPageDescription')}
          />
          <CampaignsAdmin />
        </>
      )}
    </SignedInScreen>
  );
}
