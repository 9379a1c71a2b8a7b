import {
  REALMS,
  formatAmount,
  formatTuVi,
  realmIndexOf,
  realmOf,
  realmRowName,
  type Profile,
} from '@daohuu/domain';
import { ArrowRightIcon, CheckIcon, CoinsIcon, MountainIcon, SparklesIcon } from 'lucide-react';
import { Link } from 'react-router';
import { Cultivation } from '@/components/cultivation/cultivation';
import { RealmProgress } from '@/components/cultivation/realm-progress';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { cn } from '@/lib/utils';
import { useT } from '@/i18n';

const LADDER_SPAN = 2;

/** The realms just below and above the user's, so the next steps are always in sight. */
function RealmLadder({ tuVi }: { tuVi: number }) {
  const t = useT();
  const current = realmIndexOf(tuVi);
  if (current < 0) return null;
  const start = Math.max(0, current - LADDER_SPAN);
  const end = Math.min(REALMS.length - 1, current + LADDER_SPAN);
  const rows = REALMS.slice(start, end + 1).map((row, offset) => ({ row, index: start + offset }));
  return (
    <ol className="grid gap-1.5" aria-label={t('dashboard.pathLabel')}>
      {rows.map(({ row, index }) => (
        <li
          key={index}
          aria-current={index === current ? 'step' : undefined}
          className={cn(
            'flex items-center justify-between gap-3 rounded-md px-3 py-2 text-sm',
            index === current
              ? 'bg-gold/15 font-medium text-foreground ring-1 ring-gold/50'
              : 'text-muted-foreground',
          )}
        >
          <span className="flex items-center gap-2">
            {index < current ? (
              <CheckIcon className="size-4 text-primary" aria-label={t('dashboard.passed')} />
            ) : (
              <span className="size-4" aria-hidden="true" />
            )}
            {realmRowName(row)}
          </span>
          <span className="tabular-nums">
            {Number.isFinite(row.upper)
              ? `≤ ${formatAmount(row.upper, 1)}`
              : t('dashboard.unbounded')}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** The home screen of a signed-in cultivator. */
export function Dashboard({ profile }: { profile: Profile }) {
  const t = useT();
  const realm = realmOf(profile.tuVi);
  return (
    <div className="grid gap-6">
      <section>
        <p className="text-sm font-medium tracking-[0.18em] text-gold-strong uppercase">
          {t('dashboard.eyebrow')}
        </p>
        <h1 className="mt-1 text-3xl font-semibold sm:text-4xl">
          {t('dashboard.greeting')} <span className="text-primary">{profile.daoHieu}</span>
        </h1>
        <p className="mt-2 text-muted-foreground">
          {realm.valid ? t('dashboard.inRealm', { realm: realm.name }) : t('dashboard.invalidTuVi')}
        </p>
      </section>

      <div className="grid gap-4 md:grid-cols-3">
        <Card className="relative overflow-hidden md:col-span-2" data-slot="tu-vi-card">
          <div
            aria-hidden="true"
            className="pointer-events-none absolute -top-16 -right-16 size-56 rounded-full bg-gold/15 blur-2xl"
          />
          <CardHeader>
            <CardDescription className="flex items-center gap-2">
              <SparklesIcon className="size-4 text-gold-strong" aria-hidden="true" />
              {t('common.tuVi')}
            </CardDescription>
            <CardTitle className="flex flex-wrap items-center gap-3 text-4xl font-semibold tabular-nums">
              <span data-slot="tu-vi-value">{formatTuVi(profile.tuVi)}</span>
              <Cultivation tuVi={profile.tuVi} className="text-base" />
            </CardTitle>
          </CardHeader>
          <CardContent>
            <RealmProgress tuVi={profile.tuVi} />
          </CardContent>
        </Card>

        <Card data-slot="balance-card">
          <CardHeader>
            <CardDescription className="flex items-center gap-2">
              <CoinsIcon className="size-4 text-gold-strong" aria-hidden="true" />
              {t('common.balance')}
            </CardDescription>
            <CardTitle className="text-3xl font-semibold tabular-nums" data-slot="balance-value">
              {formatAmount(profile.balance, 'currency')}
            </CardTitle>
          </CardHeader>
          <CardContent className="text-sm text-muted-foreground">
            {t('dashboard.balanceNote')}
          </CardContent>
        </Card>
      </div>

      {realm.valid ? (
        <Card>
          <CardHeader>
            <CardTitle className="flex items-center gap-2 text-lg">
              <MountainIcon className="size-5 text-primary" aria-hidden="true" />
              {t('dashboard.pathTitle')}
            </CardTitle>
            <CardDescription>{t('dashboard.pathDescription')}</CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4">
            <RealmLadder tuVi={profile.tuVi} />
            <Button variant="outline" asChild className="w-fit">
              <Link to={paths.realms.getHref()}>
                {t('dashboard.seeAllRealms')}
                <ArrowRightIcon aria-hidden="true" />
              </Link>
            </Button>
          </CardContent>
        </Card>
      ) : null}
    </div>
  );
}
