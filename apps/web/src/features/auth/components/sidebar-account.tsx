import type { Profile } from '@daohuu/domain';
import { LogInIcon } from 'lucide-react';
import * as React from 'react';
import {
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarMenuSkeleton,
} from '@/components/ui/sidebar';
import { useMe } from '@/lib/auth';
import { useAfterFirstContent } from '@/lib/idle';
import { AccountButton } from './account-button';
import { useLoginDialog } from '@/lib/login-dialog';

/** The sidebar footer: a sign-in button for guests, the account menu for cultivators. */
export function SidebarAccount() {
  const { data: me, isPending } = useMe();
  const { openLogin } = useLoginDialog();

  return (
    <SidebarMenu>
      <SidebarMenuItem>
        {isPending ? (
          <SidebarMenuSkeleton />
        ) : me ? (
          <DeferredAccountMenu profile={me} />
        ) : (
          <SidebarMenuButton
            tooltip="Đăng nhập"
            onClick={() => openLogin()}
            className="bg-sidebar-primary font-medium text-sidebar-primary-foreground hover:bg-sidebar-primary/90 hover:text-sidebar-primary-foreground active:bg-sidebar-primary/90 active:text-sidebar-primary-foreground"
          >
            <LogInIcon aria-hidden="true" />
            <span>Đăng nhập</span>
          </SidebarMenuButton>
        )}
      </SidebarMenuItem>
    </SidebarMenu>
  );
}

// The dropdown (and Radix's menu code) is not part of the first load: until it arrives, a look-alike button stands in,
// and a click on it opens the menu as soon as it has loaded.
const AccountMenu = React.lazy(async () => ({
  default: (await import('./account-menu')).AccountMenu,
}));

function DeferredAccountMenu({ profile }: { profile: Profile }) {
  const ready = useAfterFirstContent(true);
  const [openOnLoad, setOpenOnLoad] = React.useState(false);
  const standIn = <AccountButton profile={profile} onClick={() => setOpenOnLoad(true)} />;
  if (!ready && !openOnLoad) return standIn;
  return (
    <React.Suspense fallback={standIn}>
      <AccountMenu profile={profile} defaultOpen={openOnLoad} />
    </React.Suspense>
  );
}
