import { SearchIcon } from 'lucide-react';
import * as React from 'react';
import { useTranslationContext } from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { lazyDialog } from '@/lib/lazy-component';

// The search dialog (its sources, filters and result lists) downloads when it is first opened.
const ChatSearchDialog = lazyDialog(
  async () => (await import('./chat-search-dialog')).ChatSearchDialog,
);

/** The channel list's search button and the dialog it opens. */
export function ChatSearchButton() {
  const { t } = useTranslationContext();
  const [open, setOpen] = React.useState(false);
  return (
    <>
      <Button
        size="icon-sm"
        variant="ghost"
        aria-label={t('Search the chat')}
        title={t('Search the chat')}
        onClick={() => setOpen(true)}
      >
        <SearchIcon aria-hidden="true" />
      </Button>
      <ChatSearchDialog open={open} onOpenChange={setOpen} />
    </>
  );
}
