import { LogInIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { useT } from '@/i18n';
import { useLoginDialog } from '@/lib/login-dialog';

/**
 * What a guest sees instead of the message composer (channel and thread): the look of a composer, read-only.
 * Any attempt to write opens the login dialog. The field gives up focus first, so closing the dialog (which returns
 * focus to where it was) does not open it again.
 */
export function GuestComposer() {
  const { openLogin } = useLoginDialog();
  const t = useT();
  function askToSignIn(event: React.SyntheticEvent<HTMLTextAreaElement>) {
    event.currentTarget.blur();
    openLogin();
  }
  return (
    <div className="dh-guest-composer">
      <textarea
        readOnly
        rows={1}
        aria-label={t('chat.guest.composerLabel')}
        className="dh-guest-composer__field"
        placeholder={t('chat.guest.placeholder')}
        onFocus={askToSignIn}
      />
      <Button variant="gold" size="sm" onClick={() => openLogin()}>
        <LogInIcon aria-hidden="true" />
        {t('common.signIn')}
      </Button>
    </div>
  );
}
