import type { Profile, Role } from '@daohuu/domain';
import { ShieldOffIcon } from 'lucide-react';
import type * as React from 'react';
import { Link } from 'react-router';
import { QueryError } from '@/components/query-error';
import { SignInPrompt } from '@/components/sign-in-prompt';
import { StatusPanel } from '@/components/status-panel';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { paths } from '@/config/paths';
import { useMe } from '@/lib/auth';
import { useT } from '@/i18n';

export function Forbidden() {
  const t = useT();
  return (
    <StatusPanel
      icon={ShieldOffIcon}
      tone="warning"
      title={t('status.forbiddenTitle')}
      description={t('status.forbiddenDescription')}
    >
      <Button variant="outline" asChild>
        <Link to={paths.home.getHref()}>{t('common.backHome')}</Link>
      </Button>
    </StatusPanel>
  );
}

interface SignedInScreenProps {
  /** What the sign-in prompt says to someone signed out. */
  signIn: { title: string; description: string };
  /** Who may see the screen; anyone signed in when left out. The server checks again on every request. */
  roles?: readonly Role[];
  children: (me: Profile) => React.ReactNode;
}

/** A screen for signed-in cultivators: loading, error, sign-in prompt and refusal come first, the same on every one. */
export function SignedInScreen({ signIn, roles, children }: SignedInScreenProps) {
  const me = useMe();
  if (me.isPending) return <Skeleton className="h-80 w-full" aria-busy="true" />;
  if (me.isError) return <QueryError error={me.error} onRetry={() => void me.refetch()} />;
  if (!me.data) return <SignInPrompt title={signIn.title} description={signIn.description} />;
  if (roles !== undefined && !roles.includes(me.data.role)) return <Forbidden />;
  return children(me.data);
}

export const ADMINS: readonly Role[] = ['admin'];
export const STAFF: readonly Role[] = ['admin', 'moderator'];
