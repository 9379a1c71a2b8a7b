import { LoaderCircleIcon, SearchIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import type {
  Channel,
  MessageResponse,
  SearchController,
  SearchSource,
  UserResponse,
} from 'stream-chat';
import { useChatContext, useTranslationContext } from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent, DialogTitle } from '@/components/ui/dialog';
import { cn } from '@/lib/utils';
import { useSectChannels } from '../components/sect-channels-context';
import { createConversation } from '../utils/create-conversation';
import { chatChannelHref } from '../utils/chat-paths';
import { NO_MESSAGE_FILTERS, type MessageSearchFilters } from './message-filters';
import { messageResultHref } from './result-links';
import { ChannelResult, MessageResult, UserResult } from './search-result-items';
import { MessageSearchFilterBar } from './search-filters';
import { ChatMessageSearchSource, createChatSearchController } from './search-sources';
import { SearchEmpty, SearchError, SearchHint, SearchLoading } from './search-states';
import { useActiveSource, useSourceView } from './use-search-source';

const LISTBOX_ID = 'dh-chat-search-results';
const optionId = (index: number) => `${LISTBOX_ID}-${index}`;

const SOURCE_LABELS: Record<string, string> = {
  messages: 'Messages',
  channels: 'Channels',
  users: 'People',
};

function SourceSwitch({
  sources,
  active,
  onPick,
}: {
  sources: SearchSource[];
  active: SearchSource | undefined;
  onPick: (type: string) => void;
}) {
  const { t } = useTranslationContext();
  return (
    <div
      role="group"
      aria-label={t('Search sources')}
      className="flex gap-1 rounded-lg bg-muted p-1"
    >
      {sources.map((source) => (
        <button
          key={source.type}
          type="button"
          aria-pressed={source === active}
          onClick={() => onPick(source.type)}
          className={cn(
            'flex-1 rounded-md px-3 py-1.5 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-hidden',
            source === active
              ? 'bg-background text-foreground shadow-sm'
              : 'text-muted-foreground hover:text-foreground',
          )}
        >
          {t(SOURCE_LABELS[source.type] ?? source.type)}
        </button>
      ))}
    </div>
  );
}

/** What choosing a result does: open the message, the channel, or the direct message with the person. */
function useOpenResult(onClose: () => void) {
  const { client } = useChatContext();
  const { t } = useTranslationContext();
  const navigate = useNavigate();
  return React.useCallback(
    async (type: string, item: unknown) => {
      if (type === 'messages') {
        const href = messageResultHref(item as MessageResponse);
        if (!href) return;
        onClose();
        void navigate(href);
      } else if (type === 'channels') {
        const channel = item as Channel;
        if (!channel.id) return;
        onClose();
        void navigate(chatChannelHref(channel.type, channel.id));
      } else if (type === 'users') {
        try {
          const channel = await createConversation(client, {
            kind: 'direct',
            memberIds: [(item as UserResponse).id],
            name: '',
          });
          onClose();
          if (channel.id) void navigate(chatChannelHref(channel.type, channel.id));
        } catch (error) {
          console.error('Could not open the direct message.', error);
          toast.error(t('Could not open the conversation. Please try again.'));
        }
      }
    },
    [client, navigate, onClose, t],
  );
}

function ResultList({
  type,
  items,
  query,
  activeIndex,
  onHover,
  onSelect,
}: {
  type: string;
  items: unknown[];
  query: string;
  activeIndex: number;
  onHover: (index: number) => void;
  onSelect: (index: number) => void;
}) {
  const { t } = useTranslationContext();
  return (
    <ul
      id={LISTBOX_ID}
      role="listbox"
      aria-label={t('aria/Search results')}
      className="grid gap-0.5"
    >
      {items.map((item, index) => {
        const props = {
          id: optionId(index),
          active: index === activeIndex,
          query,
          onHover: () => onHover(index),
          onSelect: () => onSelect(index),
        };
        const key = (item as { id?: string; cid?: string }).cid ?? (item as { id: string }).id;
        if (type === 'messages')
          return <MessageResult key={key} item={item as MessageResponse} {...props} />;
        if (type === 'channels')
          return <ChannelResult key={key} item={item as Channel} {...props} />;
        return <UserResult key={key} item={item as UserResponse} {...props} />;
      })}
    </ul>
  );
}

function SearchPanel({
  controller,
  onClose,
}: {
  controller: SearchController;
  onClose: () => void;
}) {
  const { t } = useTranslationContext();
  const [query, setQuery] = React.useState('');
  const [filters, setFilters] = React.useState<MessageSearchFilters>(NO_MESSAGE_FILTERS);
  const [activeIndex, setActiveIndex] = React.useState(0);
  const { sources, source } = useActiveSource(controller);
  const view = useSourceView(source);
  const items = React.useMemo(() => view?.items ?? [], [view?.items]);
  const openResult = useOpenResult(onClose);
  const hasQuery = query.trim().length > 0;

  React.useEffect(() => {
    controller.activate();
    return () => controller.exit();
  }, [controller]);
  React.useEffect(() => setActiveIndex(0), [items]);
  React.useEffect(() => {
    document.getElementById(optionId(activeIndex))?.scrollIntoView?.({ block: 'nearest' });
  }, [activeIndex]);

  function search(text: string) {
    if (text.trim()) void controller.search(text);
    else controller.clear();
  }
  function changeQuery(text: string) {
    setQuery(text);
    search(text);
  }
  function pickSource(type: string) {
    controller.activateSource(type);
    search(query);
  }
  function changeFilters(next: MessageSearchFilters) {
    setFilters(next);
    const messages = controller.getSource('messages');
    if (messages instanceof ChatMessageSearchSource) messages.filters = next;
    if (messages?.isActive) search(query);
  }
  function select(index: number) {
    const item = items[index];
    if (item !== undefined && source) void openResult(source.type, item);
  }
  function onKeyDown(event: React.KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActiveIndex((current) =>
        Math.min(Math.max(current + step, 0), Math.max(items.length - 1, 0)),
      );
    } else if (event.key === 'Enter') {
      event.preventDefault();
      select(activeIndex);
    }
  }

  const showList = hasQuery && items.length > 0;
  let body: React.ReactNode;
  if (!hasQuery) body = <SearchHint />;
  else if (view?.lastQueryError)
    body = <SearchError error={view.lastQueryError} onRetry={() => search(query)} />;
  else if (view?.isLoading && items.length === 0) body = <SearchLoading />;
  else if (view?.items && items.length === 0) body = <SearchEmpty />;
  else if (!showList) body = <SearchLoading />;
  else
    body = (
      <ResultList
        type={source?.type ?? ''}
        items={items}
        query={query}
        activeIndex={activeIndex}
        onHover={setActiveIndex}
        onSelect={select}
      />
    );

  return (
    <>
      <div className="flex items-center gap-2">
        <div className="relative flex-1">
          <SearchIcon
            aria-hidden="true"
            className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
          />
          <input
            autoFocus
            type="text"
            role="combobox"
            enterKeyHint="search"
            autoComplete="off"
            spellCheck={false}
            aria-label={t('Search')}
            aria-expanded={showList}
            aria-controls={LISTBOX_ID}
            aria-autocomplete="list"
            aria-activedescendant={showList ? optionId(activeIndex) : undefined}
            placeholder={t('Search messages, channels and people')}
            value={query}
            onChange={(event) => changeQuery(event.target.value)}
            onKeyDown={onKeyDown}
            className="h-10 w-full rounded-lg border border-input bg-background pr-3 pl-9 text-base outline-none focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 md:text-sm"
          />
        </div>
        <Button size="icon" variant="ghost" aria-label={t('aria/Exit search')} onClick={onClose}>
          <XIcon aria-hidden="true" />
        </Button>
      </div>
      <SourceSwitch sources={sources} active={source} onPick={pickSource} />
      {source?.type === 'messages' ? (
        <MessageSearchFilterBar filters={filters} onChange={changeFilters} />
      ) : null}
      <div className="-mx-2 min-h-0 flex-1 overflow-y-auto px-2">
        {body}
        {showList && view?.hasNext ? (
          <div className="flex justify-center py-2">
            <Button
              size="sm"
              variant="outline"
              disabled={view.isLoading}
              onClick={() => void source?.search()}
            >
              {view.isLoading ? (
                <LoaderCircleIcon className="animate-spin" aria-hidden="true" />
              ) : null}
              {t('Load more')}
            </Button>
          </div>
        ) : null}
      </div>
      <p role="status" className="sr-only">
        {showList ? t('searchResultsCount', { count: items.length }) : ''}
      </p>
    </>
  );
}

/**
 * The chat's search: messages, channels and people, one source at a time. A dialog on wide screens, the whole
 * screen on a phone; Escape closes it, the arrow keys move through the results and Enter opens one.
 */
export function ChatSearchDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { client } = useChatContext();
  const { t } = useTranslationContext();
  const sects = useSectChannels();
  const controller = React.useMemo(
    () => createChatSearchController(client, sects),
    [client, sects],
  );
  const close = React.useCallback(() => onOpenChange(false), [onOpenChange]);
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent
        showCloseButton={false}
        aria-describedby={undefined}
        className="flex h-[min(42rem,85svh)] flex-col gap-3 p-4 sm:max-w-2xl max-md:inset-0 max-md:h-svh max-md:max-w-none max-md:translate-x-0 max-md:translate-y-0 max-md:rounded-none max-md:border-0"
      >
        <DialogTitle className="sr-only">{t('Search the chat')}</DialogTitle>
        {open ? <SearchPanel controller={controller} onClose={close} /> : null}
      </DialogContent>
    </Dialog>
  );
}
