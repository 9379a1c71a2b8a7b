import { Loader2Icon } from 'lucide-react';
import * as React from 'react';
import { Button } from '@/components/ui/button';

/**
 * "Xem thêm" under a paged list. Once the next page is in, focus moves to its first card (the `article` at index
 * `shownBefore` inside `list`), so a keyboard user carries on reading where the new items start instead of losing
 * focus when the button goes away at the end.
 */
export function LoadMore({
  list,
  shown,
  loading,
  onLoad,
}: {
  list: React.RefObject<HTMLElement | null>;
  shown: number;
  loading: boolean;
  onLoad: () => Promise<unknown>;
}) {
  async function load() {
    const before = shown;
    await onLoad();
    // The new cards render after the query settles: wait one frame for them.
    requestAnimationFrame(() => {
      const first = list.current?.querySelectorAll<HTMLElement>('[role="article"]')[before];
      if (!first) return;
      first.tabIndex = -1;
      first.focus();
    });
  }

  return (
    <Button
      variant="outline"
      className="w-full sm:w-auto sm:justify-self-center"
      disabled={loading}
      aria-busy={loading || undefined}
      onClick={() => void load()}
    >
      {loading ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : null}
      {loading ? 'Đang tải…' : 'Xem thêm'}
    </Button>
  );
}
