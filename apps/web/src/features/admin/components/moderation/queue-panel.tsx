import { InboxIcon } from 'lucide-react';
import * as React from 'react';
import { toast } from '@/lib/toast';
import { QueryError } from '@/components/query-error';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import {
  useModerationQueue,
  useSubmitModerationAction,
  type QueueStatus,
} from '../../api/moderation';
import { actionLabel, distinctBy } from '../../utils/moderation-format';
import type { ActionChoice } from './action-form';
import { LoadMore } from './load-more';
import { QueueItemCard } from './queue-item-card';
import { useT } from '@/i18n';

export function EmptyState({ children }: { children: React.ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-2 rounded-xl border border-dashed px-4 py-10 text-center text-sm text-muted-foreground">
      <InboxIcon className="size-6" aria-hidden="true" />
      {children}
    </div>
  );
}

export function LoadingCards() {
  const t = useT();
  return (
    <div className="grid gap-3" aria-busy="true" aria-label={t('admin.moderation.loading')}>
      {Array.from({ length: 3 }, (_, index) => (
        <Skeleton key={index} className="h-32 w-full" />
      ))}
    </div>
  );
}

/** The review queue: flagged messages and users waiting for a decision, or those already decided. */
export function QueuePanel() {
  const t = useT();
  const [status, setStatus] = React.useState<QueueStatus>('pending');
  const queue = useModerationQueue(status);
  const submit = useSubmitModerationAction();
  const [acting, setActing] = React.useState<string | null>(null);
  const list = React.useRef<HTMLDivElement>(null);
  const items = distinctBy(
    queue.data?.pages.flatMap((page) => page.items) ?? [],
    (item) => item.id,
  );

  async function act(itemId: string, choice: ActionChoice) {
    setActing(itemId);
    try {
      await submit.mutateAsync({
        itemId,
        action: choice.action,
        ...(choice.reason ? { reason: choice.reason } : {}),
        ...(choice.action === 'ban' || choice.action === 'shadow_ban'
          ? { durationMinutes: choice.durationMinutes }
          : {}),
      });
      toast.success(t('admin.moderation.done', { action: actionLabel(choice.action) }));
    } finally {
      setActing(null);
    }
  }

  return (
    <div className="grid gap-4">
      <div
        className="flex flex-wrap gap-2"
        role="group"
        aria-label={t('admin.moderation.queueStatus')}
      >
        {(
          [
            ['pending', 'admin.moderation.pending'],
            ['reviewed', 'admin.moderation.reviewed'],
          ] as const
        ).map(([value, label]) => (
          <Button
            key={value}
            size="sm"
            variant={status === value ? 'default' : 'outline'}
            aria-pressed={status === value}
            onClick={() => setStatus(value)}
          >
            {t(label)}
          </Button>
        ))}
      </div>
      {queue.isPending ? (
        <LoadingCards />
      ) : queue.isError ? (
        <QueryError error={queue.error} onRetry={() => void queue.refetch()} />
      ) : items.length === 0 ? (
        <EmptyState>
          {status === 'pending'
            ? t('admin.moderation.noPending')
            : t('admin.moderation.noReviewed')}
        </EmptyState>
      ) : (
        <div className="grid gap-3" ref={list} aria-busy={queue.isFetching || undefined}>
          {items.map((item) => (
            <QueueItemCard
              key={item.id}
              item={item}
              pending={acting === item.id}
              onAction={(choice) => act(item.id, choice)}
            />
          ))}
          <LoadMore
            list={list}
            shown={items.length}
            hasMore={queue.hasNextPage}
            loading={queue.isFetchingNextPage}
            onLoad={() => void queue.fetchNextPage()}
          />
        </div>
      )}
    </div>
  );
}
