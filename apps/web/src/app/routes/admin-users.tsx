import { PageHeader } from '@/components/page-header';
import { UsersAdmin } from '@/features/admin/components/users-admin';
import { ADMINS, SignedInScreen } from './signed-in-screen';
import { useT } from '@/i18n';

export function AdminUsersRoute() {
  const t = useT();
  return (
    <SignedInScreen
      signIn={{
        title: t('common.signInRequired'),
        description: t('adminHome.usersSignIn'),
      }}
      roles={ADMINS}
    >
      {() => (
        <>
          <PageHeader
            title={t('adminHome.usersTitle')}
            description={t('adminHome.usersPageDescription')}
          />
          <UsersAdmin />
        </>
      )}
    </SignedInScreen>
  );
}
