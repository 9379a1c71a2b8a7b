import { CircleAlertIcon, LoaderCircleIcon, SearchIcon } from 'lucide-react';
import { useTranslationContext } from 'stream-chat-react';
import { Button } from '@/components/ui/button';

/** Stream's "too many requests" error code; the chat server answers it when a cultivator searches too fast. */
const RATE_LIMITED = 9;

function isRateLimited(error: Error): boolean {
  const { code, status } = error as Error & { code?: unknown; status?: unknown };
  return code === RATE_LIMITED || status === 429;
}

export function SearchHint() {
  const { t } = useTranslationContext();
  return (
    <p className="flex flex-col items-center gap-2 py-10 text-center text-sm text-muted-foreground">
      <SearchIcon className="size-6 opacity-60" aria-hidden="true" />
      {t('Start typing to search')}
    </p>
  );
}

export function SearchLoading() {
  const { t } = useTranslationContext();
  return (
    <p
      role="status"
      className="flex items-center justify-center gap-2 py-10 text-sm text-muted-foreground"
    >
      <LoaderCircleIcon className="size-4 animate-spin" aria-hidden="true" />
      {t('Searching...')}
    </p>
  );
}

export function SearchEmpty() {
  const { t } = useTranslationContext();
  return (
    <p role="status" className="py-10 text-center text-sm text-muted-foreground">
      {t('No results found')}
    </p>
  );
}

export function SearchError({ error, onRetry }: { error: Error; onRetry: () => void }) {
  const { t } = useTranslationContext();
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-center text-sm">
      <p role="alert" className="flex items-center gap-2 text-destructive">
        <CircleAlertIcon className="size-4 shrink-0" aria-hidden="true" />
        {isRateLimited(error)
          ? t('Search is busy. Wait a moment and try again.')
          : t('Search failed. Check your connection and try again.')}
      </p>
      <Button size="sm" variant="outline" onClick={onRetry}>
        {t('Try again')}
      </Button>
    </div>
  );
}
