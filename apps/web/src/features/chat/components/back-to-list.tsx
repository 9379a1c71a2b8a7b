import { ArrowLeftIcon } from 'lucide-react';
import type * as React from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import { CHAT_PATH } from '../utils/chat-paths';

/**
 * Whether the history entry before this one was made by the app itself. The router numbers the entries it pushes
 * (`idx` in the entry's state) from 0 for the page the tab landed on, so anything above 0 has an app screen behind
 * it; at 0 the previous entry, if any, is another site.
 */
export function hasAppEntryBehind(state: unknown): boolean {
  if (typeof state !== 'object' || state === null) return false;
  const { idx } = state as { idx?: unknown };
  return typeof idx === 'number' && idx > 0;
}

function isPlainClick(event: React.MouseEvent): boolean {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

/**
 * The channel header's back arrow (phones only): back to where the cultivator came from when that was a screen of
 * the app, as the browser's back button would, and to the channel list when the channel was opened straight from a
 * link. It stays a link to the list, so opening it in a new tab still works.
 */
export function BackToList() {
  const navigate = useNavigate();
  const t = useT();
  const goBack = (event: React.MouseEvent<HTMLAnchorElement>) => {
    if (!isPlainClick(event) || !hasAppEntryBehind(window.history.state)) return;
    event.preventDefault();
    void navigate(-1);
  };
  return (
    <Button
      asChild
      size="icon-sm"
      variant="ghost"
      className="dh-channel-header__back"
      aria-label={t('chat.list.backToList')}
    >
      <Link to={CHAT_PATH} onClick={goBack}>
        <ArrowLeftIcon aria-hidden="true" />
      </Link>
    </Button>
  );
}
