import { ArrowRightIcon, MegaphoneIcon, ShieldCheckIcon, UsersIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/page-header';
import { paths } from '@/config/paths';
import type { Role } from '@daohuu/domain';
import { SignedInScreen, STAFF } from './signed-in-screen';
import { type MessageKey, useT } from '@/i18n';

interface AdminArea {
  title: MessageKey;
  description: MessageKey;
  href: string;
  icon: React.ComponentType<{ className?: string }>;
  /** Moderators reach the moderation screen too; the rest is for admins. */
  forModerators: boolean;
}

const AREAS: AdminArea[] = [
  {
    title: 'adminHome.usersTitle',
    description: 'adminHome.usersDescription',
    href: paths.admin.users.getHref(),
    icon: UsersIcon,
    forModerators: false,
  },
  {
    title: 'adminHome.moderationTitle',
    description: 'adminHome.moderationDescription',
    href: paths.admin.moderation.getHref(),
    icon: ShieldCheckIcon,
    forModerators: true,
  },
  {
    title: 'adminHome.campaignsTitle',
    description: 'adminHome.campaignsDescription',
    href: paths.admin.campaigns.getHref(),
    icon: MegaphoneIcon,
    forModerators: false,
  },
];

function AreaLink({ area }: { area: AdminArea }) {
  const t = useT();
  const Icon = area.icon;
  return (
    <li>
      <Link
        to={area.href}
        className="group flex h-full items-start gap-3 rounded-xl border bg-card p-4 shadow-sm transition-colors hover:bg-muted/40 focus-visible:outline-2 focus-visible:outline-ring"
      >
        <Icon className="mt-0.5 size-5 shrink-0 text-primary" />
        <span className="grid flex-1 gap-1">
          <span className="font-medium">{t(area.title)}</span>
          <span className="text-sm text-muted-foreground">{t(area.description)}</span>
        </span>
        <ArrowRightIcon className="mt-0.5 size-4 shrink-0 text-muted-foreground transition-transform group-hover:translate-x-0.5" />
      </Link>
    </li>
  );
}

/** `/quan-tri`: where each admin screen is, for the roles that may open it. */
export function AdminHomeRoute() {
  const t = useT();
  return (
    <SignedInScreen
      signIn={{ title: t('common.signInRequired'), description: t('adminHome.signInDescription') }}
      roles={STAFF}
    >
      {(me) => <AdminAreas role={me.role} />}
    </SignedInScreen>
  );
}

function AdminAreas({ role }: { role: Role }) {
  const t = useT();
  const areas = AREAS.filter((area) => role === 'admin' || area.forModerators);
  return (
    <>
      <PageHeader title={t('adminHome.title')} description={t('adminHome.description')} />
      <nav aria-label={t('adminHome.areasLabel')}>
        <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
          {areas.map((area) => (
            <AreaLink key={area.href} area={area} />
          ))}
        </ul>
      </nav>
    </>
  );
}
