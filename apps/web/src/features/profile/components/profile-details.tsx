import { formatAmount, type Profile } from '@daohuu/domain';
import type * as React from 'react';
import { Cultivation } from '@/components/cultivation/cultivation';
import { RealmProgress } from '@/components/cultivation/realm-progress';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { UserAvatar } from '@/components/user-avatar';
import { formatDate, useShownLanguage, useT } from '@/i18n';

function Detail({ term, children }: { term: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 rounded-lg border bg-background/60 px-4 py-3">
      <dt className="text-xs font-medium tracking-wide text-muted-foreground uppercase">{term}</dt>
      <dd className="font-medium">{children}</dd>
    </div>
  );
}

export function ProfileDetails({ profile }: { profile: Profile }) {
  const t = useT();
  const language = useShownLanguage();
  const role = t(`role.${profile.role}`);
  return (
    <Card>
      <CardHeader className="flex flex-wrap items-center gap-4">
        <UserAvatar name={profile.daoHieu} image={profile.image} className="size-16 text-2xl" />
        <div className="grid gap-1">
          <h2 className="text-2xl font-semibold">{profile.daoHieu}</h2>
          <div className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
            <span>{profile.email}</span>
            <Badge variant="secondary">{role}</Badge>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-6">
        <dl className="grid gap-3 sm:grid-cols-2">
          <Detail term={t('common.daoHieu')}>{profile.daoHieu}</Detail>
          <Detail term={t('common.email')}>{profile.email}</Detail>
          <Detail term={t('profile.role')}>{role}</Detail>
          <Detail term={t('common.tuVi')}>
            <span className="tabular-nums">{formatAmount(profile.tuVi, 1)}</span>
          </Detail>
          <Detail term={t('common.realm')}>
            <Cultivation tuVi={profile.tuVi} />
          </Detail>
          <Detail term={t('common.balance')}>
            <span className="tabular-nums">{formatAmount(profile.balance, 'currency')}</span>
          </Detail>
          <Detail term={t('profile.joined')}>{formatDate(profile.createdAt, language)}</Detail>
        </dl>
        <RealmProgress tuVi={profile.tuVi} />
      </CardContent>
    </Card>
  );
}
