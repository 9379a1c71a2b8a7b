import * as React from 'react';
import type { UserResponse } from 'stream-chat';
import { lazyComponent } from '@/lib/lazy-component';

// A card (Radix's dialog) is opened by a click on a name: its code is not part of the chat's first load.
const ProfileCard = lazyComponent(async () => (await import('./profile-card')).ProfileCard);

type OpenProfile = (user: UserResponse) => void;

const ProfileCardContext = React.createContext<OpenProfile | null>(null);

/**
 * Holds the one open profile card of the chat; anything below may open it for a user. Guests get no card (its
 * actions need an account), so names and mentions stay plain text for them.
 */
export function ProfileCardProvider({
  enabled,
  children,
}: {
  enabled: boolean;
  children: React.ReactNode;
}) {
  const [user, setUser] = React.useState<UserResponse | null>(null);
  const open = React.useCallback<OpenProfile>((next) => setUser(next), []);
  return (
    <ProfileCardContext.Provider value={enabled ? open : null}>
      {children}
      {user ? <ProfileCard key={user.id} user={user} onClose={() => setUser(null)} /> : null}
    </ProfileCardContext.Provider>
  );
}

/** Opens a cultivator's profile card; null where there is none (a guest, or outside the provider). */
export function useOpenProfile(): OpenProfile | null {
  return React.useContext(ProfileCardContext);
}
