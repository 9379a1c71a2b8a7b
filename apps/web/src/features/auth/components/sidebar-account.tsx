import { LogInIcon } from 'lucide-react';
import {
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarMenuSkeleton,
} from '@/components/ui/sidebar';
import { useT } from '@/i18n';
import { useMe } from '@/lib/auth';
import { deferredControl } from '@/lib/deferred-control';
import { useLoginDialog, loginTrigger } from '@/lib/login-dialog';
import { AccountButton } from './account-button';

// Radix's menu is not part of the first load: the same button stands in until the user reaches for it.
const AccountMenu = deferredControl(
  async () => (await import('./account-menu')).AccountMenu,
  AccountButton,
);

/** The sidebar footer: a sign-in button for guests, the account menu for cultivators. */
export function SidebarAccount() {
  const t = useT();
  const { data: me, isPending } = useMe();
  const { openLogin } = useLoginDialog();

  return (
    <SidebarMenu>
      <SidebarMenuItem>
        {isPending ? (
          <SidebarMenuSkeleton />
        ) : me ? (
          <AccountMenu profile={me} />
        ) : (
          <SidebarMenuButton
            tooltip={t('common.signIn')}
            {...loginTrigger}
            onClick={() => openLogin()}
            className="bg-sidebar-primary font-medium text-sidebar-primary-foreground hover:bg-sidebar-primary/90 hover:text-sidebar-primary-foreground active:bg-sidebar-primary/90 active:text-sidebar-primary-foreground"
          >
            <LogInIcon aria-hidden="true" />
            <span>{t('common.signIn')}</span>
          </SidebarMenuButton>
        )}
      </SidebarMenuItem>
    </SidebarMenu>
  );
}
