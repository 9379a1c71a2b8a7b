import { PageHeader } from '@/components/page-header';
import { ModerationAdmin } from '@/features/admin/components/moderation/moderation-admin';
import { SignedInScreen, STAFF } from './signed-in-screen';
import { useT } from '@/i18n';

export function AdminModerationRoute() {
  const t = useT();
  return (
    <SignedInScreen
      signIn={{
        title: t('common.signInRequired'),
        description: t('adminHome.moderationSignIn'),
      }}
      roles={STAFF}
    >
      {() => (
        <>
          <PageHeader
            title={t('adminHome.moderationTitle')}
            description={t('adminHome.moderationPageDescription')}
          />
          <ModerationAdmin />
        </>
      )}
    </SignedInScreen>
  );
}
