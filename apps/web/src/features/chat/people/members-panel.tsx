import { UsersIcon, XIcon } from 'lucide-react';
import type { ChannelMemberResponse } from 'stream-chat';
import { useChannelStateContext, useTranslationContext } from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import { UserAvatar } from '@/components/user-avatar';
import { Sheet, SheetContent, SheetDescription, SheetTitle } from '@/components/ui/sheet';
import { useMediaQuery } from '@/hooks/use-media-query';
import { RealmBadge } from '../components/realm-badge';
import { PresenceDot } from './presence-line';
import { useOpenProfile } from './profile-card-context';
import { useChannelMembers } from './use-channel-members';
import './people.css';

/** The panel sits beside the conversation from this width; below it is a sheet over the screen. */
export const MEMBERS_BESIDE_QUERY = '(min-width: 1024px)';

function MemberRow({ member }: { member: ChannelMemberResponse }) {
  const openProfile = useOpenProfile();
  const { t } = useTranslationContext();
  const user = member.user;
  if (!user) return null;
  const name = user.name || user.id;
  return (
    <li>
      <button
        type="button"
        className="dh-members__item"
        data-testid="member-row"
        disabled={!openProfile}
        onClick={() => openProfile?.(user)}
      >
        <span className="dh-members__avatar">
          {/* The app's own avatar: the SDK's needs the chat's theme root, which the phone sheet is outside. */}
          <UserAvatar name={name} image={user.image} className="rounded-full" />
          <PresenceDot online={!!user.online} />
        </span>
        <span className="dh-members__name">{name}</span>
        <RealmBadge tuVi={user.tu_vi} />
        <span className="sr-only">{user.online ? t('Online now') : t('Offline')}</span>
      </button>
    </li>
  );
}

function MembersList() {
  const { channel } = useChannelStateContext();
  const { t } = useTranslationContext();
  const { members, loading, failed, hasMore, loadMore } = useChannelMembers(channel);
  if (failed && members.length === 0)
    return <p className="dh-pinned__empty">{t('Could not load the members')}</p>;
  if (!loading && members.length === 0)
    return <p className="dh-pinned__empty">{t('No members to show')}</p>;
  return (
    <div className="dh-members__body" aria-busy={loading || undefined}>
      <ul className="dh-members__list">
        {members.map((member) => (
          <MemberRow key={member.user_id ?? member.user?.id} member={member} />
        ))}
      </ul>
      {hasMore ? (
        <Button variant="ghost" size="sm" className="w-full" disabled={loading} onClick={loadMore}>
          {t('Load more members')}
        </Button>
      ) : null}
    </div>
  );
}

/** The channel's members with presence and realm; choosing one opens their profile card. */
export function MembersPanel({ onClose }: { onClose: () => void }) {
  const { t } = useTranslationContext();
  const beside = useMediaQuery(MEMBERS_BESIDE_QUERY);
  if (!beside) {
    return (
      <Sheet open onOpenChange={(open) => (open ? undefined : onClose())}>
        <SheetContent
          side="right"
          className="dh-members dh-members--sheet"
          aria-describedby={undefined}
        >
          <SheetTitle className="dh-members__sheet-title">{t('Members')}</SheetTitle>
          <SheetDescription className="sr-only">{t('Show members')}</SheetDescription>
          <MembersList />
        </SheetContent>
      </Sheet>
    );
  }
  return (
    <aside className="dh-pinned dh-members" aria-label={t('Members')}>
      <div className="dh-pinned__header">
        <UsersIcon className="size-4 text-gold-strong" aria-hidden="true" />
        <h3 className="dh-pinned__title">{t('Members')}</h3>
        <Button size="icon-sm" variant="ghost" aria-label={t('Close')} onClick={onClose}>
          <XIcon aria-hidden="true" />
        </Button>
      </div>
      <MembersList />
    </aside>
  );
}
