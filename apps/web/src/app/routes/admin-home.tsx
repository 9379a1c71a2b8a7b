import { ArrowRightIcon, MegaphoneIcon, ShieldCheckIcon, UsersIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import type { Role } from '@daohuu/domain';
import { SignedInScreen, STAFF } from './signed-in-screen';

interface AdminArea {
  title: string;
  description: string;
  href: string;
  icon: React.ComponentType<{ className?: string }>;
  /** Moderators reach the moderation screen too; the rest is for admins. */
  forModerators: boolean;
}

const AREAS: AdminArea[] = [
  {
    title: 'Người dùng',
    description: 'Tìm người dùng, chỉnh tu vi, số dư và vai trò.',
    href: paths.admin.users.getHref(),
    icon: UsersIcon,
    forModerators: false,
  },
  {
    title: 'Kiểm duyệt',
    description: 'Báo cáo, danh sách cấm, từ cấm và chế độ chậm.',
    href: paths.admin.moderation.getHref(),
    icon: ShieldCheckIcon,
    forModerators: true,
  },
  {
    title: 'Chiến dịch',
    description: 'Gửi thông báo đến các đạo hữu và theo dõi tiến độ.',
    href: paths.admin.campaigns.getHref(),
    icon: MegaphoneIcon,
    forModerators: false,
  },
];

function AreaLink({ area }: { area: AdminArea }) {
  const Icon = area.icon;
  return (
    <li>
      <Link
        to={area.href}
        className="group flex h-full items-start gap-3 rounded-xl border bg-card p-4 shadow-sm transition-colors hover:bg-muted/40 focus-visible:outline-2 focus-visible:outline-ring"
      >
        <Icon className="mt-0.5 size-5 shrink-0 text-primary" />
        <span className="grid flex-1 gap-1">
          <span className="font-medium">{area.title}</span>
          <span className="text-sm text-muted-foreground">{area.description}</span>
        </span>
        <ArrowRightIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5" />
      </Link>
    </li>
  );
}

/** `/quan-tri`: where each admin screen is, for the roles that may open it. */
export function AdminHomeRoute() {
  return (
    <SignedInScreen
      signIn={{
        title: 'Cần đăng nhập',
        description:
          'Trang quản trị chỉ dành cho quản trị viên và người kiểm duyệt. Vui lòng đăng nhập.',
      }}
      roles={STAFF}
    >
      {(me) => <AdminAreas role={me.role} />}
    </SignedInScreen>
  );
}

function AdminAreas({ role }: { role: Role }) {
  const areas = AREAS.filter((area) => role === 'admin' || area.forModerators);
  return (
    <>
      <PageHeader title="Quản trị" description="Chọn việc cần làm." />
      <nav aria-label="Khu vực quản trị">
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {areas.map((area) => (
            <AreaLink key={area.href} area={area} />
          ))}
        </ul>
      </nav>
    </>
  );
}
