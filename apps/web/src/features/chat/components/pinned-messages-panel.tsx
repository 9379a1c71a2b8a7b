import { PinIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import type { LocalMessage } from 'stream-chat';
import {
  useChannelActionContext,
  useChannelStateContext,
  useTranslationContext,
} from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { dateFormat, useShownLanguage } from '@/i18n';
import { RealmBadge } from './realm-badge';

function pinnedAt(message: LocalMessage): number {
  const at = message.pinned_at ?? message.created_at;
  return at ? new Date(at).getTime() : 0;
}

/** Newest pin first. */
export function sortPinned(messages: readonly LocalMessage[]): LocalMessage[] {
  return [...messages].sort((a, b) => pinnedAt(b) - pinnedAt(a));
}

function PinnedItem({ message, onOpen }: { message: LocalMessage; onOpen: () => void }) {
  const { t } = useTranslationContext();
  const language = useShownLanguage();
  const author = message.user?.name || message.user?.id || '';
  // Dates follow the language on screen, as every screen's do (docs/product-rules.md §1).
  const when = message.created_at
    ? dateFormat(language, { dateStyle: 'short', timeStyle: 'short' }).format(
        new Date(message.created_at),
      )
    : '';
  const text = message.text?.trim() || t('🏙 Attachment...');
  return (
    <li>
      <button type="button" className="dh-pinned__item" onClick={onOpen}>
        <span className="dh-pinned__meta">
          <span className="dh-pinned__author">{author}</span>
          <RealmBadge tuVi={message.user?.tu_vi} />
          <span className="dh-pinned__time">{when}</span>
        </span>
        <span className="dh-pinned__text">{text}</span>
      </button>
    </li>
  );
}

/**
 * The channel's pinned messages beside the conversation; choosing one jumps the list to it (loading it when it is not
 * in the page) and highlights it. Where the panel covers the conversation (a narrow channel pane) it closes, so the
 * message can be seen.
 */
export function PinnedMessagesPanel({ onClose }: { onClose: () => void }) {
  const { pinnedMessages = [] } = useChannelStateContext();
  const { jumpToMessage } = useChannelActionContext();
  const { t } = useTranslationContext();
  const panel = React.useRef<HTMLElement>(null);
  const messages = sortPinned(pinnedMessages.filter((message) => message.type !== 'deleted'));
  function open(id: string) {
    const covers = panel.current && getComputedStyle(panel.current).position === 'absolute';
    if (covers) onClose();
    void jumpToMessage(id);
  }
  return (
    <aside ref={panel} className="dh-pinned" aria-label={t('Pinned messages')}>
      <div className="dh-pinned__header">
        <PinIcon className="size-4 text-gold-strong" aria-hidden="true" />
        <h3 className="dh-pinned__title">{t('Pinned messages')}</h3>
        <Button size="icon-sm" variant="ghost" aria-label={t('Close')} onClick={onClose}>
          <XIcon aria-hidden="true" />
        </Button>
      </div>
      {messages.length === 0 ? (
        <p className="dh-pinned__empty">{t('No pinned messages')}</p>
      ) : (
        <ul className="dh-pinned__list">
          {messages.map((message) => (
            <PinnedItem key={message.id} message={message} onOpen={() => open(message.id)} />
          ))}
        </ul>
      )}
    </aside>
  );
}
