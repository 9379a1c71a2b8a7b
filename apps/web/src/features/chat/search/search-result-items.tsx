import { MessageSquareReplyIcon, PaperclipIcon, PinIcon } from 'lucide-react';
import type { Channel, MessageResponse, UserResponse } from 'stream-chat';
import { useChatContext, useTranslationContext } from 'stream-chat-react';
import { UserAvatar } from '@/components/user-avatar';
import { dateFormat, useShownLanguage } from '@/i18n';
import { cn } from '@/lib/utils';
import { HighlightedText } from './highlighted-text';
import { highlightSnippet } from './highlight';
import { channelTitle, isThreadOnlyReply, messageChannelTitle } from './result-links';

interface OptionProps {
  id: string;
  active: boolean;
  onSelect: () => void;
  onHover: () => void;
  children: React.ReactNode;
}

/** One result row of the listbox; the input keeps the focus and points here with aria-activedescendant. */
function ResultOption({ id, active, onSelect, onHover, children }: OptionProps) {
  return (
    <li
      id={id}
      role="option"
      aria-selected={active}
      data-active={active || undefined}
      className={cn(
        'flex cursor-pointer items-start gap-3 rounded-lg px-3 py-2 text-sm',
        active ? 'bg-accent text-accent-foreground' : 'hover:bg-muted/60',
      )}
      // The input keeps the focus, so typing goes on after a click.
      onMouseDown={(event) => event.preventDefault()}
      onMouseMove={onHover}
      onClick={onSelect}
    >
      {children}
    </li>
  );
}

export type ResultProps<T> = Omit<OptionProps, 'children'> & { item: T; query: string };

export function MessageResult({ item, query, ...option }: ResultProps<MessageResponse>) {
  const { client } = useChatContext();
  const { t } = useTranslationContext();
  const author = item.user?.name || item.user?.id || '';
  const language = useShownLanguage();
  // Dates follow the language on screen, as every screen's do (docs/product-rules.md §1).
  const when = item.created_at
    ? dateFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(
        new Date(item.created_at),
      )
    : '';
  const text = item.text?.trim() ? highlightSnippet(item.text, query) : t('🏙 Attachment...');
  const hasFiles = (item.attachments ?? []).length > 0;
  return (
    <ResultOption {...option}>
      <UserAvatar name={author} image={item.user?.image} />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
          <span className="truncate font-semibold text-foreground">
            <HighlightedText text={author} query={query} />
          </span>
          <span aria-hidden="true">·</span>
          <span className="truncate">{messageChannelTitle(client, item)}</span>
          <span className="ml-auto shrink-0">{when}</span>
        </span>
        <span className="line-clamp-3 break-words" data-testid="search-result-text">
          <HighlightedText text={text} query={query} />
        </span>
        {isThreadOnlyReply(item) || item.pinned || hasFiles ? (
          <span className="flex gap-2 text-xs text-muted-foreground">
            {isThreadOnlyReply(item) ? (
              <span className="inline-flex items-center gap-1">
                <MessageSquareReplyIcon className="size-3" aria-hidden="true" />
                {t('Thread Reply')}
              </span>
            ) : null}
            {item.pinned ? (
              <span className="inline-flex items-center gap-1">
                <PinIcon className="size-3" aria-hidden="true" />
                {t('Pinned only')}
              </span>
            ) : null}
            {hasFiles ? (
              <span className="inline-flex items-center gap-1">
                <PaperclipIcon className="size-3" aria-hidden="true" />
                {t('With files')}
              </span>
            ) : null}
          </span>
        ) : null}
      </span>
    </ResultOption>
  );
}

export function ChannelResult({ item, query, ...option }: ResultProps<Channel>) {
  const { client } = useChatContext();
  const { t } = useTranslationContext();
  const title = channelTitle(item, client.userID);
  const memberCount = item.data?.member_count;
  return (
    <ResultOption {...option}>
      <UserAvatar
        name={title}
        image={typeof item.data?.image === 'string' ? item.data.image : null}
      />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="truncate font-semibold">
          <HighlightedText text={title} query={query} />
        </span>
        {typeof memberCount === 'number' ? (
          <span className="text-xs text-muted-foreground">
            {t('{{ memberCount }} members', { memberCount })}
          </span>
        ) : null}
      </span>
    </ResultOption>
  );
}

export function UserResult({ item, query, ...option }: ResultProps<UserResponse>) {
  const { t } = useTranslationContext();
  const name = item.name || item.id;
  return (
    <ResultOption {...option}>
      <UserAvatar name={name} image={item.image} />
      <span className="grid min-w-0 flex-1 gap-0.5">
        <span className="truncate font-semibold">
          <HighlightedText text={name} query={query} />
        </span>
        <span className="text-xs text-muted-foreground">{t('Direct message')}</span>
      </span>
    </ResultOption>
  );
}
