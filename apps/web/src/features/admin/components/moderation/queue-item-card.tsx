import type { ModeratedMessage, ModerationActionRecord, ModerationQueueItem } from '@daohuu/domain';
import { FlagIcon, UserRoundIcon } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { cn } from '@/lib/utils';
import { actionLogLabel } from '../../utils/moderation-format';
import { ActionForm, type ActionChoice } from './action-form';
import { formatMomentIn, useShownLanguage, useT } from '@/i18n';

function ContextMessage({ message, flagged }: { message: ModeratedMessage; flagged: boolean }) {
  const t = useT();
  const language = useShownLanguage();
  return (
    <li
      className={cn(
        'rounded-md px-3 py-2 text-sm',
        flagged ? 'border border-destructive/40 bg-destructive/8' : 'bg-muted/50',
      )}
      aria-current={flagged ? 'true' : undefined}
      data-flagged={flagged || undefined}
    >
      <div className="flex flex-wrap items-baseline gap-x-2 text-xs text-muted-foreground">
        <span className="font-medium text-foreground">{message.userName ?? message.userId}</span>
        {message.createdAt ? <span>{formatMomentIn(message.createdAt, language)}</span> : null}
        {flagged ? (
          <span className="text-destructive">{t('admin.moderation.flaggedMessage')}</span>
        ) : null}
      </div>
      <p className="break-words whitespace-pre-wrap">
        {message.deleted ? (
          <em className="text-muted-foreground">{t('admin.moderation.deleted')} </em>
        ) : null}
        {message.text || <em className="text-muted-foreground">{t('admin.moderation.noText')}</em>}
      </p>
    </li>
  );
}

function ActionList({ title, records }: { title: string; records: ModerationActionRecord[] }) {
  const language = useShownLanguage();
  if (records.length === 0) return null;
  return (
    <section className="grid gap-1" aria-label={title}>
      <h4 className="text-xs font-medium text-muted-foreground">{title}</h4>
      <ul className="grid gap-1 text-sm">
        {records.map((record, index) => (
          <li key={`${record.type}-${record.createdAt}-${index}`}>
            <span className="font-medium">{actionLogLabel(record.type)}</span>
            {record.createdAt ? ` · ${formatMomentIn(record.createdAt, language)}` : ''}
            {record.reason ? ` · ${record.reason}` : ''}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** One flagged message or user: what was said around it, who reported it and why, and what was done before. */
export function QueueItemCard({
  item,
  onAction,
  pending,
}: {
  item: ModerationQueueItem;
  onAction: (choice: ActionChoice) => Promise<void>;
  pending: boolean;
}) {
  const t = useT();
  const language = useShownLanguage();
  const title =
    item.kind === 'message'
      ? t('admin.moderation.messageBy', {
          name: item.targetUserName ?? item.targetUserId ?? t('admin.moderation.unknownUser'),
        })
      : t('admin.moderation.userItem', { name: item.targetUserName ?? item.targetUserId ?? '' });
  const context = item.context.length > 0 ? item.context : item.message ? [item.message] : [];
  return (
    <Card className="gap-4 py-4" data-item-id={item.id} aria-label={title} role="article">
      <CardHeader className="px-4">
        <CardTitle className="flex flex-wrap items-center gap-2 text-base">
          {item.kind === 'message' ? (
            <FlagIcon className="size-4" aria-hidden="true" />
          ) : (
            <UserRoundIcon className="size-4" aria-hidden="true" />
          )}
          {title}
          <Badge variant="secondary">
            {t('admin.moderation.reportCount', { count: item.reports.length })}
          </Badge>
        </CardTitle>
        {item.createdAt ? (
          <p className="text-xs text-muted-foreground">
            {t('admin.moderation.reportedAt', {
              moment: formatMomentIn(item.createdAt, language),
            })}
          </p>
        ) : null}
      </CardHeader>
      <CardContent className="grid gap-4 px-4">
        {context.length > 0 ? (
          <ol className="grid gap-1.5" aria-label={t('admin.moderation.context')}>
            {context.map((message) => (
              <ContextMessage
                key={message.id}
                message={message}
                flagged={message.id === item.message?.id}
              />
            ))}
          </ol>
        ) : null}
        <section className="grid gap-1" aria-label={t('admin.moderation.reasons')}>
          <h4 className="text-xs font-medium text-muted-foreground">
            {t('admin.moderation.reasons')}
          </h4>
          <ul className="grid gap-1 text-sm">
            {item.reports.map((report, index) => (
              <li key={`${report.reporterId}-${index}`}>
                <span className="font-medium">
                  {report.reporterName ?? report.reporterId ?? t('admin.moderation.anonymous')}
                </span>
                {': '}
                {report.reason || (
                  <em className="text-muted-foreground">{t('admin.moderation.noReason')}</em>
                )}
              </li>
            ))}
          </ul>
        </section>
        <ActionList title={t('admin.moderation.actionsHere')} records={item.actions} />
        <ActionList title={t('admin.moderation.history')} records={item.history} />
        <ActionForm kind={item.kind} onSubmit={onAction} pending={pending} />
      </CardContent>
    </Card>
  );
}
