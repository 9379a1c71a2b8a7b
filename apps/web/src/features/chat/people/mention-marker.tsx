import { formatAmount } from '@daohuu/domain';
import type { Channel } from 'stream-chat';
import { useTranslationContext } from 'stream-chat-react';
import './people.css';

/** The unread mentions of the viewer in `channel`, as stream-chat counts them; 0 when the count fails. */
export function unreadMentionsOf(channel: Pick<Channel, 'countUnreadMentions'>): number {
  try {
    return channel.countUnreadMentions();
  } catch {
    // A channel the client only registered has no read state yet.
    return 0;
  }
}

/** "@" and the count on a channel row while someone's mention of the viewer is unread. */
export function MentionMarker({ count }: { count: number }) {
  const { t } = useTranslationContext();
  if (count <= 0) return null;
  const label = t('Unread mentions: {{ count }}', { count: formatAmount(count, 1) });
  return (
    <span
      className="dh-mention-marker"
      data-testid="mention-marker"
      title={label}
      aria-label={label}
      role="img"
    >
      @{count > 1 ? <span className="tabular-nums">{formatAmount(count, 1)}</span> : null}
    </span>
  );
}
