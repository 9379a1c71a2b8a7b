import type { LocalMessage } from 'stream-chat';
import { RealmBadge } from '../components/realm-badge';

type MessageUser = NonNullable<LocalMessage['user']>;

/** Đạo hiệu and realm above a run of messages by one author. */
export function MessageAuthorHeader({ user, mine }: { user: MessageUser; mine: boolean }) {
  const name = user.name || user.id;
  return (
    <div className="dh-message-author" data-mine={mine || undefined} data-testid="message-author">
      <span className="dh-message-author__name">{mine ? 'Bạn' : name}</span>
      <RealmBadge tuVi={user.tu_vi} />
    </div>
  );
}
