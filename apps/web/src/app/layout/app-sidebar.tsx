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
import { useMe } from '@/lib/auth';

interface NavItem {
  label: string;
  href: string;
  icon: LucideIcon;
  badge?: React.ReactNode;
}

const MAIN_NAV: NavItem[] = [
  { label: 'Tổng quan', href: paths.home.getHref(), icon: HouseIcon },
  {
    label: 'Trò chuyện',
    href: paths.chat.getHref(),
    icon: MessagesSquareIcon,
    badge: <ChatUnreadBadge />,
  },
  { label: 'Nhắc nhở', href: paths.reminders.getHref(), icon: BellIcon },
  { label: 'Bảng cảnh giới', href: paths.realms.getHref(), icon: LayersIcon },
  { label: 'Hồ sơ', href: paths.profile.getHref(), icon: UserRoundIcon },
];

const ADMIN_NAV: NavItem[] = [
  { label: 'Người dùng', href: paths.admin.users.getHref(), icon: UsersIcon },
  { label: 'Chiến dịch', href: paths.admin.campaigns.getHref(), icon: MegaphoneIcon },
];

const MODERATION_NAV: NavItem = {
  label: 'Kiểm duyệt',
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
  const { pathname } = useLocation();
  const { setOpenMobile } = useSidebar();
  return (
    <SidebarMenu>
      {items.map(({ label, href, icon: Icon, badge }) => {
        const active = isActive(pathname, href);
        return (
          <SidebarMenuItem key={href}>
            <SidebarMenuButton asChild isActive={active} tooltip={label}>
              <Link
                to={href}
                aria-current={active ? 'page' : undefined}
                onClick={() => setOpenMobile(false)}
              >
                <Icon aria-hidden="true" />
                <span>{label}</span>
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
              tooltip="Đạo Hữu"
              className="hover:bg-transparent active:bg-transparent"
            >
              <Link to={paths.home.getHref()} onClick={() => setOpenMobile(false)}>
                <LogoMark className="size-8!" />
                <span className="grid leading-tight">
                  <span className="font-display text-lg font-semibold tracking-wide text-sidebar-primary">
                    Đạo Hữu
                  </span>
                  <span className="text-xs text-sidebar-foreground/70">Cộng đồng tu tiên</span>
                </span>
              </Link>
            </SidebarMenuButton>
          </SidebarMenuItem>
        </SidebarMenu>
      </SidebarHeader>
      <SidebarSeparator />
      <SidebarContent>
        <SidebarGroup>
          <SidebarGroupLabel>Tu luyện</SidebarGroupLabel>
          <SidebarGroupContent>
            <NavMenu items={MAIN_NAV} />
          </SidebarGroupContent>
        </SidebarGroup>
        {adminNavFor(me?.role).length > 0 ? (
          <SidebarGroup>
            <SidebarGroupLabel>Quản trị</SidebarGroupLabel>
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
