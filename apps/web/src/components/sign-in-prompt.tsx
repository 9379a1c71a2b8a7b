import { LockKeyholeIcon, LogInIcon } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { useLoginDialog, loginTrigger } from '@/lib/login-dialog';
import { StatusPanel } from './status-panel';
import { useT } from '@/i18n';

/** Shown by screens that need a session; the button opens the shared login dialog. */
export function SignInPrompt({ title, description }: { title: string; description: string }) {
  const t = useT();
  const { openLogin } = useLoginDialog();
  return (
    <StatusPanel icon={LockKeyholeIcon} title={title} description={description}>
      <Button variant="gold" {...loginTrigger} onClick={() => openLogin()}>
        <LogInIcon aria-hidden="true" />
        {t('common.signIn')}
      </Button>
      <Button variant="outline" {...loginTrigger} onClick={() => openLogin('sign-up')}>
        {t('common.signUp')}
      </Button>
    </StatusPanel>
  );
}
