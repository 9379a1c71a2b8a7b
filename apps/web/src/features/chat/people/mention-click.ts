import * as React from 'react';
import type { UserResponse } from 'stream-chat';
import type { ChannelProps } from 'stream-chat-react';
import { useOpenProfile } from './profile-card-context';

type OnMentionAction = NonNullable<ChannelProps['onMentionsClick']>;

/**
 * The user a click on a highlighted mention points at. The SDK matches the span's text against the mentioned
 * users' names, which fails for two cultivators of one name; the span's own `data-user-id` does not.
 */
export function mentionedUserOf(
  target: EventTarget | null,
  mentioned: readonly UserResponse[] | undefined,
  fallback: UserResponse | undefined,
): UserResponse | undefined {
  const span = target instanceof Element ? target.closest<HTMLElement>('[data-user-id]') : null;
  const id = span?.dataset.userId;
  return (id ? mentioned?.find((user) => user.id === id) : undefined) ?? fallback;
}

/** Channel's `onMentionsClick`: a click on a mention opens that cultivator's profile card (none for guests). */
export function useMentionClick(): OnMentionAction | undefined {
  const openProfile = useOpenProfile();
  return React.useMemo<OnMentionAction | undefined>(
    () =>
      openProfile
        ? (event, user, message) => {
            const target = mentionedUserOf(event.target, message?.mentioned_users, user);
            if (target) openProfile(target);
          }
        : undefined,
    [openProfile],
  );
}
