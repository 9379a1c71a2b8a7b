import { realmName, type Profile } from '@daohuu/domain';
import { ChevronsUpDownIcon } from 'lucide-react';
import type * as React from 'react';
import { SidebarMenuButton } from '@/components/ui/sidebar';
import { UserAvatar } from '@/components/user-avatar';
import { useT } from '@/i18n';

/** The account row of the sidebar footer: the menu's trigger, and its stand-in until the menu has loaded. */
export function AccountButton({
  profile,
  ...props
}: { profile: Profile } & React.ComponentProps<typeof SidebarMenuButton>) {
  const t = useT();
  const realm = realmName(profile.tuVi);
  return (
    <SidebarMenuButton
      {...props}
      size="lg"
      tooltip={profile.daoHieu}
      aria-label={t('auth.account', { name: profile.daoHieu })}
      className="data-[state=open]:bg-sidebar-accent data-[state=open]:text-sidebar-accent-foreground"
    >
      <UserAvatar name={profile.daoHieu} image={profile.image} />
      <span className="grid flex-1 text-left leading-tight">
        <span className="truncate font-medium" data-slot="account-name">
          {profile.daoHieu}
        </span>
        <span className="truncate text-xs text-sidebar-primary">{realm}</span>
      </span>
      <ChevronsUpDownIcon className="ml-auto size-4" aria-hidden="true" />
    </SidebarMenuButton>
  );
}
