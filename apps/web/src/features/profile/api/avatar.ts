import { isAllowedAvatar } from '@daohuu/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { StreamChat } from 'stream-chat';
import { AuthFailure } from '@/features/auth/api/auth-mutations';
import type { AuthClientError } from '@/features/auth/utils/auth-errors';
import { authClient } from '@/lib/auth-client';
import { refreshMe } from '@/lib/auth';
import type { MessageKey } from '@/i18n';

export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const;
/** Well under the chat server's upload cap: an avatar is shown small, a phone photo is resized by the user. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

/** A file the avatar rule refuses; the key names the reason in the catalogue (src/i18n/locales). */
export class AvatarInputError extends Error {
  override readonly name = 'AvatarInputError';

  constructor(readonly messageKey: MessageKey) {
    super(messageKey);
  }
}

/** Why this file cannot be an avatar (a catalogue key), or null when it can. */
export function avatarFileProblem(file: Pick<File, 'type' | 'size'>): MessageKey | null {
  if (!(AVATAR_TYPES as readonly string[]).includes(file.type)) return 'profile.avatarType';
  if (file.size > AVATAR_MAX_BYTES) return 'profile.avatarTooBig';
  if (file.size === 0) return 'profile.avatarEmpty';
  return null;
}

/**
 * The same-origin path of an uploaded file, the only form of avatar the product accepts (packages/domain's avatar
 * rule): the chat server answers with an absolute URL on this origin.
 */
export function avatarPathOf(uploadedUrl: string, origin: string): string | null {
  let url: URL;
  try {
    url = new URL(uploadedUrl, origin);
  } catch {
    return null;
  }
  if (url.origin !== origin) return null;
  const path = `${url.pathname}${url.search}`;
  return isAllowedAvatar(path) ? path : null;
}

async function setImage(image: string | null): Promise<void> {
  let result: { error: AuthClientError | null };
  try {
    result = await authClient.updateUser({ image });
  } catch {
    throw new AuthFailure({ code: 'NETWORK_ERROR' });
  }
  if (result.error) throw new AuthFailure(result.error);
}

/**
 * Uploads the picture to the embedded chat server as the signed-in user, then makes it their avatar through
 * better-auth's update-user, whose hooks check it and carry it to the chat user (apps/server auth/user-rules.ts).
 */
export function useSetAvatar(client: StreamChat | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (file: File | null) => {
      if (file === null) return setImage(null);
      const problem = avatarFileProblem(file);
      if (problem) throw new AvatarInputError(problem);
      if (!client) throw new AvatarInputError('profile.avatarNoChat');
      const uploaded = await client.uploadImage(file, file.name, file.type);
      const path = avatarPathOf(uploaded.file, window.location.origin);
      if (!path) throw new AvatarInputError('profile.avatarServerRefused');
      return setImage(path);
    },
    onSuccess: () => refreshMe(queryClient),
  });
}
