/**
 * Who must hear of changes to a product user (the chat user sync, chat/chat-users.ts, in app.ts). Declared here so
 * the auth and profile handlers call it by name without knowing about chat. Implementations never reject: a
 * follower that fails logs and retries later, so a profile change or a sign-in never fails because of it.
 */
export interface UserChanges {
  /** After a successful sign-up or sign-in: the user is about to use the app. */
  userSignedIn(userId: string): Promise<unknown>;
  /** After a write to the user's row: đạo hiệu, avatar, tu vi, balance or role. Resolves once followers are in step. */
  userChanged(userId: string): Promise<unknown>;
}
