import type { LocalMessage } from 'stream-chat';
import { useT } from '@/i18n';
import { RealmBadge } from '../components/realm-badge';
import { useOpenProfile } from '../people/profile-card-context';

type MessageUser = NonNullable<LocalMessage['user']>;

/** Đạo hiệu and realm above a run of messages by one author. */
export function MessageAuthorHeader({ user, mine }: { user: MessageUser; mine: boolean }) {
  const name = user.name || user.id;
  const openProfile = useOpenProfile();
  const t = useT();
  const label = mine ? t('chat.message.you') : name;
  return (
    <div className="dh-message-author" data-mine={mine || undefined} data-testid="message-author">
      {openProfile ? (
        <button
          type="button"
          className="dh-message-author__name dh-message-author__name--button"
          onClick={() => openProfile(user)}
        >
          {label}
        </button>
      ) : (
        <span className="dh-message-author__name">{label}</span>
      )}
      <RealmBadge tuVi={user.tu_vi} />
    </div>
  );
}
