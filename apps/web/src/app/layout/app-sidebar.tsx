import {
  BellIcon,
  HouseIcon,
  LayersIcon,
  MegaphoneIcon,
  MessagesSquareIcon,
  ShieldCheckIcon,
  UserRoundIcon,
  UsersIcon,
  type LucideIcon,
} from 'lucide-react';
import type * as React from 'react';
import { Link, useLocation } from 'react-router';
import { LogoMark } from '@/components/logo-mark';
import {
  Sidebar,
  SidebarContent,
  SidebarFooter,
  SidebarGroup,
  SidebarGroupContent,
  SidebarGroupLabel,
  SidebarHeader,
  SidebarMenu,
  SidebarMenuButton,
  SidebarMenuItem,
  SidebarRail,
  SidebarSeparator,
  useSidebar,
} from '@/components/ui/sidebar';
import { paths } from '@/config/paths';
import { SidebarAccount } from '@/features/auth/components/sidebar-account';
import { ChatUnreadBadge } from '@/features/chat';
import { useT, type MessageKey } from '@/i18n';
import { useMe } from '@/lib/auth';

interface NavItem {
  label: MessageKey;
  href: string;
  icon: LucideIcon;
  badge?: React.ReactNode;
}

const MAIN_NAV: NavItem[] = [
  { label: 'nav.overview', href: paths.home.getHref(), icon: HouseIcon },
  {
    label: 'nav.chat',
    href: paths.chat.getHref(),
    icon: MessagesSquareIcon,
    badge: <ChatUnreadBadge />,
  },
  { label: 'nav.reminders', href: paths.reminders.getHref(), icon: BellIcon },
  { label: 'nav.realms', href: paths.realms.getHref(), icon: LayersIcon },
  { label: 'nav.profile', href: paths.profile.getHref(), icon: UserRoundIcon },
];

const ADMIN_NAV: NavItem[] = [
  { label: 'nav.users', href: paths.admin.users.getHref(), icon: UsersIcon },
  { label: 'nav.campaigns', href: paths.admin.campaigns.getHref(), icon: MegaphoneIcon },
];

const MODERATION_NAV: NavItem = {
  label: 'nav.moderation',
  href: paths.admin.moderation.getHref(),
  icon: ShieldCheckIcon,
};

/** Admins see every admin screen; moderators only the moderation one. */
function adminNavFor(role: string | undefined): NavItem[] {
  if (role === 'admin') return [...ADMIN_NAV, MODERATION_NAV];
  if (role === 'moderator') return [MODERATION_NAV];
  return [];
}

function isActive(pathname: string, href: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

function NavMenu({ items }: { items: NavItem[] }) {
  const t = useT();
  const { pathname } = useLocation();
  const { setOpenMobile } = useSidebar();
  return (
    <SidebarMenu>
      {items.map(({ label, href, icon: Icon, badge }) => {
        const active = isActive(pathname, href);
        return (
          <SidebarMenuItem key={href}>
            <SidebarMenuButton asChild isActive={active} tooltip={t(label)}>
              <Link
                to={href}
                aria-current={active ? 'page' : undefined}
                onClick={() => setOpenMobile(false)}
              >
                <Icon aria-hidden="true" />
                <span>{t(label)}</span>
              </Link>
            </SidebarMenuButton>
            {badge}
          </SidebarMenuItem>
        );
      })}
    </SidebarMenu>
  );
}

export function AppSidebar() {
  const t = useT();
  const { data: me } = useMe();
  const { setOpenMobile } = useSidebar();

  return (
    <Sidebar collapsible="icon">
      <SidebarHeader>
        <SidebarMenu>
          <SidebarMenuItem>
            <SidebarMenuButton
              size="lg"
              asChild
              tooltip={t('nav.brand')}
              className="hover:bg-transparent active:bg-transparent"
            >
              <Link to={paths.home.getHref()} onClick={() => setOpenMobile(false)}>
                <LogoMark className="size-8!" />
                <span className="grid leading-tight">
                  <span className="font-display text-lg font-semibold tracking-wide text-sidebar-primary">
                    {t('nav.brand')}
                  </span>
                  <span className="text-xs text-sidebar-foreground/70">{t('nav.tagline')}</span>
                </span>
              </Link>
            </SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarHeader>
      <SidebarSeparator />
      <SidebarContent>
        <SidebarGroup>
          <SidebarGroupLabel>{t('nav.cultivation')}</SidebarGroupLabel>
          <SidebarGroupContent>
            <NavMenu items={MAIN_NAV} />
          </SidebarGroupContent>
        </SidebarGroup>
        {adminNavFor(me?.role).length > 0 ? (
          <SidebarGroup>
            <SidebarGroupLabel>{t('nav.admin')}</SidebarGroupLabel>
            <SidebarGroupContent>
              <NavMenu items={adminNavFor(me?.role)} />
            </SidebarGroupContent>
          </SidebarGroup>
        ) : null}
      </SidebarContent>
      <SidebarFooter>
        <SidebarAccount />
      </SidebarFooter>
      <SidebarRail />
    </Sidebar>
  );
}
