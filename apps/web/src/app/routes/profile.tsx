import { PageHeader } from '@/components/page-header';
import { BlockedUsersSection } from '@/features/chat/people/blocked-users-section';
import { AvatarForm } from '@/features/profile/components/avatar-form';
import { BreakthroughSetting } from '@/features/profile/components/breakthrough-setting';
import { ChangePasswordForm } from '@/features/profile/components/change-password-form';
import { EditDaoHieuForm } from '@/features/profile/components/edit-dao-hieu-form';
import { ProfileDetails } from '@/features/profile/components/profile-details';
import type { Profile as ProfileData } from '@daohuu/domain';
import { SignedInScreen } from './signed-in-screen';
import { useT } from '@/i18n';

export function ProfileRoute() {
  const t = useT();
  return (
    <SignedInScreen
      signIn={{ title: t('profile.signInTitle'), description: t('profile.signInDescription') }}
    >
      {(profile) => <Profile profile={profile} />}
    </SignedInScreen>
  );
}

function Profile({ profile }: { profile: ProfileData }) {
  const t = useT();
  return (
    <>
      <PageHeader title={t('profile.title')} description={t('profile.description')} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)] lg:items-start">
        <ProfileDetails profile={profile} />
        <div className="grid gap-6">
          <EditDaoHieuForm profile={profile} />
          <AvatarForm profile={profile} />
          <ChangePasswordForm />
          <BreakthroughSetting />
          <BlockedUsersSection />
        </div>
      </div>
    </>
  );
}
