import type { Profile } from '@daohuu/domain';
import { ImageUpIcon, TrashIcon } from 'lucide-react';
import * as React from 'react';
import { toast } from '@/lib/toast';
import { FormAlert } from '@/components/form-alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { UserAvatar } from '@/components/user-avatar';
import { useChatSession } from '@/features/chat';
import { AuthFailure } from '@/features/auth/api/auth-mutations';
import { authErrorMessage } from '@/features/auth/utils/auth-errors';
import { AVATAR_TYPES, AvatarInputError, useSetAvatar } from '../api/avatar';
import { type Translate, useT } from '@/i18n';

function failureMessage(failure: unknown, t: Translate): string {
  if (failure instanceof AvatarInputError) return t(failure.messageKey);
  if (failure instanceof AuthFailure) return authErrorMessage(failure.details);
  return t('profile.avatarFailed');
}

/** Upload or remove the avatar; without one, the initials stand in everywhere. */
export function AvatarForm({ profile }: { profile: Profile }) {
  // The picture goes to the chat server as the signed-in user, so it waits for the chat connection.
  const t = useT();
  const { client, status } = useChatSession();
  const setAvatar = useSetAvatar(client);
  const inputRef = React.useRef<HTMLInputElement>(null);
  const [error, setError] = React.useState<string | null>(null);

  async function apply(file: File | null) {
    setError(null);
    try {
      await setAvatar.mutateAsync(file);
      toast.success(file ? t('profile.avatarSaved') : t('profile.avatarRemoved'));
    } catch (failure) {
      setError(failureMessage(failure, t));
    }
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-lg">{t('profile.avatarTitle')}</CardTitle>
        <CardDescription>{t('profile.avatarDescription')}</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <FormAlert message={error} />
        <div className="flex flex-wrap items-center gap-4">
          <UserAvatar name={profile.daoHieu} image={profile.image} className="size-16 text-2xl" />
          <div className="flex flex-wrap gap-2">
            <Button
              type="button"
              variant="outline"
              disabled={setAvatar.isPending || status !== 'ready'}
              onClick={() => inputRef.current?.click()}
            >
              <ImageUpIcon aria-hidden="true" />
              {t('profile.avatarUpload')}
            </Button>
            {profile.image ? (
              <Button
                type="button"
                variant="ghost"
                disabled={setAvatar.isPending}
                onClick={() => void apply(null)}
              >
                <TrashIcon aria-hidden="true" />
                {t('profile.avatarRemove')}
              </Button>
            ) : null}
          </div>
          <input
            ref={inputRef}
            type="file"
            accept={AVATAR_TYPES.join(',')}
            aria-label={t('profile.avatarPick')}
            className="sr-only"
            tabIndex={-1}
            onChange={(event) => {
              const file = event.target.files?.[0] ?? null;
              event.target.value = '';
              if (file) void apply(file);
            }}
          />
        </div>
      </CardContent>
    </Card>
  );
}
