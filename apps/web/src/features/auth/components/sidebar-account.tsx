import { realmName, type Profile } from '@daohuu/domain';
import { ChevronsUpDownIcon, LogInIcon, LogOutIcon, UserRoundIcon } from 'lucide-react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { ThemeRadioItems } from '@/components/theme-menu';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuGroup,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import {
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarMenuSkeleton,
  useSidebar,
} from '@/components/ui/sidebar';
import { UserAvatar } from '@/components/user-avatar';
import { paths } from '@/config/paths';
import { useMe, useSignOut } from '@/lib/auth';
import { useLoginDialog } from '@/lib/login-dialog';
import { useT } from '@/i18n';
import { LanguageItems } from '@/i18n/language-items';

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

function AccountMenu({ profile }: { profile: Profile }) {
  const t = useT();
  const { isMobile, setOpenMobile } = useSidebar();
  const signOut = useSignOut();
  const realm = realmName(profile.tuVi);

  function handleSignOut() {
    signOut.mutate(undefined, {
      onSuccess: () => toast.success(t('auth.signedOut')),
      onError: () => toast.error(t('auth.signOutFailed')),
    });
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <SidebarMenuButton
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
      </DropdownMenuTrigger>
      <DropdownMenuContent
        className="w-(--radix-dropdown-menu-trigger-width) min-w-60 rounded-lg"
        side={isMobile ? 'top' : 'right'}
        align="end"
        sideOffset={8}
      >
        <DropdownMenuLabel className="p-0 font-normal">
          <div className="flex items-center gap-2 px-1 py-1.5 text-left text-sm">
            <UserAvatar name={profile.daoHieu} image={profile.image} />
            <div className="grid flex-1 leading-tight">
              <span className="truncate font-medium">{profile.daoHieu}</span>
              <span className="truncate text-xs text-gold-strong">{realm}</span>
            </div>
          </div>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuGroup>
          <DropdownMenuItem asChild>
            <Link to={paths.profile.getHref()} onClick={() => setOpenMobile(false)}>
              <UserRoundIcon aria-hidden="true" />
              {t('auth.profile')}
            </Link>
          </DropdownMenuItem>
        </DropdownMenuGroup>
        <DropdownMenuSeparator />
        <DropdownMenuLabel className="text-xs font-normal text-muted-foreground">
          {t('auth.appearance')}
        </DropdownMenuLabel>
        <ThemeRadioItems />
        <DropdownMenuSeparator />
        <LanguageItems />
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={handleSignOut} disabled={signOut.isPending}>
          <LogOutIcon aria-hidden="true" />
          {t('common.signOut')}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
