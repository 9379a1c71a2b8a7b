import { Avatar, useChatContext, type ChannelAvatarProps } from 'stream-chat-react';
import { cn } from '@/lib/utils';

type Face = NonNullable<ChannelAvatarProps['displayMembers']>[number];

/**
 * The two faces a group shows: other members before oneself (one's own face tells nothing about the group), in the
 * order the SDK lists them.
 */
export function groupFaces(members: readonly Face[], ownId: string | undefined): Face[] {
  const others = members.filter((member) => !ownId || member.id !== ownId);
  return (others.length >= 2 ? others : members).slice(0, 2);
}

/**
 * A channel's avatar: its image, or one member's face, or for a group a clean stack of two faces (or initials). It
 * replaces the SDK's group avatar, which squeezes three or four faces into a circle the size of one.
 */
export function ChannelAvatar({
  displayMembers,
  imageUrl,
  size,
  userName,
  className,
  isOnline,
  ...rest
}: ChannelAvatarProps) {
  const { client } = useChatContext('ChannelAvatar');
  const members = imageUrl ? [] : (displayMembers ?? []);
  if (members.length < 2) {
    const only = members[0];
    return (
      <Avatar
        {...rest}
        className={className}
        imageUrl={only ? only.imageUrl : imageUrl}
        isOnline={isOnline}
        size={size}
        userName={only ? only.userName : userName}
      />
    );
  }
  const faces = groupFaces(members, client.userID);
  return (
    <div
      {...rest}
      className={cn('dh-group-avatar', size ? `dh-group-avatar--size-${size}` : null, className)}
      data-testid="group-avatar"
      role="img"
      aria-label={userName}
    >
      {faces.map((face, index) => (
        <Avatar
          key={face.id ?? `${face.userName ?? ''}-${index}`}
          className="dh-group-avatar__face"
          imageUrl={face.imageUrl}
          size="md"
          userName={face.userName}
        />
      ))}
    </div>
  );
}
