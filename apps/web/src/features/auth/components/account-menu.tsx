import { realmName, type Profile } from '@daohuu/domain';
import { LogOutIcon, UserRoundIcon } from 'lucide-react';
import { Link } from 'react-router';
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
import { useSidebar } from '@/components/ui/sidebar';
import { UserAvatar } from '@/components/user-avatar';
import { paths } from '@/config/paths';
import { useT } from '@/i18n';
import { LanguageItems } from '@/i18n/language-items';
import { useSignOut } from '../hooks/use-sign-out';
import type { DeferredControlProps } from '@/lib/deferred-control';
import { toast } from '@/lib/toast';
import { AccountButton } from './account-button';

/** The signed-in cultivator's menu: profile, theme, language, sign-out. Loaded when first reached for (sidebar-account.tsx). */
export function AccountMenu({
  profile,
  defaultOpen,
  autoFocus,
}: { profile: Profile } & DeferredControlProps) {
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
    <DropdownMenu defaultOpen={defaultOpen}>
      <DropdownMenuTrigger asChild>
        <AccountButton profile={profile} autoFocus={autoFocus} />
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
