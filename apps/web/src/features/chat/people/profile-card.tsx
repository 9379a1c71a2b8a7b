import { avatarInitials, avatarSource, formatAmount } from '@daohuu/domain';
import { BanIcon, MessageCircleIcon } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router';
import type { BlockedUsersState, UserResponse } from 'stream-chat';
import { useChatContext, useStateStore, useTranslationContext } from 'stream-chat-react';
import { toast } from '@/lib/toast';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { RealmBadge } from '../components/realm-badge';
import { createConversation } from '../utils/create-conversation';
import { chatChannelHref } from '../utils/chat-paths';
import { PresenceLine } from './presence-line';
import './people.css';

const selectBlocked = (state: BlockedUsersState) => ({ userIds: state.userIds });

/** The freshest copy of `user` the server has (presence, tu vi), starting from the one we were handed. */
function useFreshUser(user: UserResponse): UserResponse {
  const { client } = useChatContext();
  const [fresh, setFresh] = React.useState(user);
  React.useEffect(() => {
    let cancelled = false;
    client
      .queryUsers({ id: { $in: [user.id] } }, {}, { limit: 1 })
      .then(({ users }) => {
        const found = users[0];
        if (!cancelled && found) setFresh((current) => ({ ...current, ...found }));
      })
      // The card still shows what the message or member list carried.
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [client, user.id]);
  return fresh;
}

function BlockConfirmation({
  name,
  onConfirm,
  onCancel,
}: {
  name: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslationContext();
  return (
    <div
      className="dh-profile-card__confirm"
      role="group"
      aria-label={t('Block {{ name }}?', { name })}
    >
      <p className="font-medium">{t('Block {{ name }}?', { name })}</p>
      <p className="text-sm text-muted-foreground">
        {t(
          'They can no longer message you directly, your direct conversation is hidden from your list, and their activity no longer notifies you. Their messages in sect channels and groups still show. You can unblock them from your profile.',
        )}
      </p>
      <div className="dh-profile-card__actions">
        <Button variant="outline" size="sm" onClick={onCancel}>
          {t('Cancel')}
        </Button>
        <Button variant="destructive" size="sm" onClick={onConfirm}>
          {t('Block')}
        </Button>
      </div>
    </div>
  );
}

function ProfileActions({ user, onClose }: { user: UserResponse; onClose: () => void }) {
  const { client } = useChatContext();
  const { t } = useTranslationContext();
  const navigate = useNavigate();
  const { userIds } = useStateStore(client.blockedUsers, selectBlocked);
  const [confirming, setConfirming] = React.useState(false);
  const blocked = userIds.includes(user.id);
  const name = user.name || user.id;

  async function message() {
    try {
      const channel = await createConversation(client, {
        kind: 'direct',
        memberIds: [user.id],
        name: '',
      });
      onClose();
      if (channel.id) navigate(chatChannelHref(channel.type, channel.id));
    } catch {
      toast.error(t('Could not open the conversation'));
    }
  }
  async function toggleBlock() {
    setConfirming(false);
    try {
      if (blocked) await client.unBlockUser(user.id);
      else await client.blockUser(user.id);
    } catch {
      toast.error(t('Could not block this cultivator'));
    }
  }

  if (confirming) {
    return (
      <BlockConfirmation
        name={name}
        onConfirm={() => void toggleBlock()}
        onCancel={() => setConfirming(false)}
      />
    );
  }
  return (
    <DialogFooter className="dh-profile-card__actions">
      <Button variant="gold" size="sm" onClick={() => void message()}>
        <MessageCircleIcon aria-hidden="true" />
        {t('Open a direct message')}
      </Button>
      <Button
        variant="outline"
        size="sm"
        onClick={() => (blocked ? void toggleBlock() : setConfirming(true))}
      >
        <BanIcon aria-hidden="true" />
        {blocked ? t('Unblock') : t('Block')}
      </Button>
    </DialogFooter>
  );
}

/** Initials or the allowed avatar; the SDK's Avatar needs the chat's theme root, which the dialog's portal is outside. */
function CardAvatar({ image, name }: { image: unknown; name: string }) {
  const src = avatarSource(image);
  if (src) return <img className="dh-profile-card__avatar" src={src} alt="" />;
  return (
    <span className="dh-profile-card__avatar" aria-hidden="true">
      {avatarInitials(name)}
    </span>
  );
}

/**
 * A cultivator's card: avatar, đạo hiệu, realm, tu vi, presence, and "Nhắn tin" / "Chặn" for anyone but oneself.
 * A dialog rather than an anchored popover: the app has no popover primitive, and a dialog traps focus properly.
 */
export function ProfileCard({ user, onClose }: { user: UserResponse; onClose: () => void }) {
  const { client } = useChatContext();
  const { t } = useTranslationContext();
  const fresh = useFreshUser(user);
  const name = fresh.name || fresh.id;
  const mine = fresh.id === client.userID;
  const tuVi = typeof fresh.tu_vi === 'number' ? fresh.tu_vi : undefined;
  return (
    <Dialog open onOpenChange={(open) => (open ? undefined : onClose())}>
      <DialogContent className="dh-profile-card sm:max-w-sm" data-testid="profile-card">
        <DialogHeader className="dh-profile-card__header">
          <CardAvatar image={fresh.image} name={name} />
          <div className="dh-profile-card__identity">
            <DialogTitle className="dh-profile-card__name">
              {name}
              {mine ? <span className="text-muted-foreground"> ({t('You')})</span> : null}
            </DialogTitle>
            <RealmBadge tuVi={fresh.tu_vi} />
            <DialogDescription asChild>
              <div className="dh-profile-card__meta">
                {tuVi !== undefined ? (
                  <span data-testid="profile-tu-vi">
                    {t('Cultivation: {{ tuVi }}', { tuVi: formatAmount(tuVi, 1) })}
                  </span>
                ) : null}
                <PresenceLine user={fresh} />
              </div>
            </DialogDescription>
          </div>
        </DialogHeader>
        {mine ? null : <ProfileActions user={fresh} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}
