import { LogInIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button';
import { useLoginDialog } from '@/lib/login-dialog';

export const GUEST_COMPOSER_PLACEHOLDER = 'Đăng nhập để gửi tin nhắn…';

/**
 * What a guest sees instead of the message composer (channel and thread): the look of a composer, read-only.
 * Any attempt to write opens the login dialog. The field gives up focus first, so closing the dialog (which returns
 * focus to where it was) does not open it again.
 */
export function GuestComposer() {
  const { openLogin } = useLoginDialog();
  function askToSignIn(event: React.SyntheticEvent<HTMLTextAreaElement>) {
    event.currentTarget.blur();
    openLogin();
  }
  return (
    <div className="dh-guest-composer">
      <textarea
        readOnly
        rows={1}
        aria-label="Soạn tin nhắn (cần đăng nhập)"
        className="dh-guest-composer__field"
        placeholder={GUEST_COMPOSER_PLACEHOLDER}
        onFocus={askToSignIn}
      />
      <Button variant="gold" size="sm" onClick={() => openLogin()}>
        <LogInIcon aria-hidden="true" />
        Đăng nhập
      </Button>
    </div>
  );
}
