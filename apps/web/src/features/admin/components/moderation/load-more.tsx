import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';

/**
 * "Xem thêm" under a paged list. Once the next page is in, focus moves to its first card (the `article` at the index
 * the list had before), so a keyboard user carries on reading where the new items start instead of losing focus when
 * the button goes away at the end. Stays mounted without a button when there is nothing more, so that move still
 * happens after the last page.
 */
export function LoadMore({
  list,
  shown,
  hasMore,
  loading,
  onLoad,
}: {
  list: React.RefObject<HTMLElement | null>;
  shown: number;
  hasMore: boolean;
  loading: boolean;
  onLoad: () => unknown;
}) {
  const t = useT();
  const focusFrom = React.useRef<number | null>(null);

  React.useEffect(() => {
    const from = focusFrom.current;
    if (from === null || shown <= from) return;
    focusFrom.current = null;
    const first = list.current?.querySelectorAll<HTMLElement>('[role="article"]')[from];
    if (!first) return;
    first.tabIndex = -1;
    first.focus();
  }, [list, shown]);

  if (!hasMore) return null;
  return (
    <Button
      variant="outline"
      className="w-full sm:w-auto sm:justify-self-center"
      disabled={loading}
      aria-busy={loading || undefined}
      onClick={() => {
        focusFrom.current = shown;
        onLoad();
      }}
    >
      {loading ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
      {loading ? t('admin.moderation.loadingMore') : t('admin.moderation.loadMore')}
    </Button>
  );
}
