import type { ModerationBan } from '@daohuu/domain';
import * as React from 'react';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { QueryError } from '@/components/query-error';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { useBans, useUnbanUser } from '../../api/moderation';
import { distinctBy } from '../../utils/moderation-format';
import { errorMessage } from './action-form';
import { BanUserForm } from './ban-user-form';
import { LoadMore } from './load-more';
import { EmptyState, LoadingCards } from './queue-panel';
import { formatMomentIn, useShownLanguage, useT } from '@/i18n';

export function BanCard({
  ban,
  onUnban,
  pending,
}: {
  ban: ModerationBan;
  onUnban: () => void;
  pending: boolean;
}) {
  const t = useT();
  const language = useShownLanguage();
  const name = ban.userName ?? ban.userId;
  return (
    <Card
      className="gap-2 py-4"
      role="article"
      aria-label={t('admin.moderation.banOf', { name })}
      data-user-id={ban.userId}
    >
      <CardContent className="flex flex-wrap items-start justify-between gap-3 px-4">
        <div className="grid min-w-0 gap-1 text-sm">
          <span className="flex flex-wrap items-center gap-2 font-medium">
            {name}
            <Badge variant={ban.shadow ? 'secondary' : 'destructive'}>
              {ban.shadow
                ? t('admin.moderation.action.shadow_ban')
                : t('admin.moderation.action.ban')}
            </Badge>
          </span>
          <span className="text-muted-foreground">
            {ban.expires
              ? t('admin.moderation.until', { moment: formatMomentIn(ban.expires, language) })
              : t('admin.moderation.forever')}
          </span>
          <span className="break-words">
            {t('admin.moderation.reasonLine', {
              reason: ban.reason ?? t('admin.moderation.noReason'),
            })}
          </span>
        </div>
        <Button
          variant="outline"
          size="sm"
          disabled={pending}
          aria-label={t('admin.moderation.unbanName', { name })}
          onClick={onUnban}
        >
          {t('admin.moderation.action.unban')}
        </Button>
      </CardContent>
    </Card>
  );
}

const banKey = (ban: ModerationBan) => `${ban.userId}-${ban.shadow}`;

/** Bans in force, with unban, and a form to ban a user by id. */
export function BansPanel() {
  const t = useT();
  const bans = useBans();
  const unban = useUnbanUser();
  const [error, setError] = React.useState<string | null>(null);
  const list = React.useRef<HTMLDivElement>(null);
  const shown = distinctBy(bans.data?.pages.flatMap((page) => page.bans) ?? [], banKey);

  async function lift(ban: ModerationBan) {
    setError(null);
    try {
      await unban.mutateAsync({ userId: ban.userId, shadow: ban.shadow });
      toast.success(t('admin.moderation.unbanned', { name: ban.userName ?? ban.userId }));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  }

  return (
    <div className="grid gap-4">
      <BanUserForm />
      <FormAlert message={error} />
      {bans.isPending ? (
        <LoadingCards />
      ) : bans.isError ? (
        <QueryError error={bans.error} onRetry={() => void bans.refetch()} />
      ) : shown.length === 0 ? (
        <EmptyState>{t('admin.moderation.noBans')}</EmptyState>
      ) : (
        <div className="grid gap-3" ref={list}>
          {shown.map((ban) => (
            <BanCard
              key={banKey(ban)}
              ban={ban}
              pending={unban.isPending && unban.variables?.userId === ban.userId}
              onUnban={() => void lift(ban)}
            />
          ))}
          <LoadMore
            list={list}
            shown={shown.length}
            hasMore={bans.hasNextPage}
            loading={bans.isFetchingNextPage}
            onLoad={() => void bans.fetchNextPage()}
          />
        </div>
      )}
    </div>
  );
}
