import { BanIcon, CircleAlertIcon } from 'lucide-react';
import * as React from 'react';
import { toast } from '@/lib/toast';
import type { BlockedUserDetails, StreamChat } from 'stream-chat';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { UserAvatar } from '@/components/user-avatar';
import { dateFormat, useShownLanguage, useT } from '@/i18n';
import { useChatConnection } from '../session/chat-session';

type BlockedState =
  { status: 'loading' } | { status: 'error' } | { status: 'ready'; blocks: BlockedUserDetails[] };

function sameIds(blocks: readonly BlockedUserDetails[], ids: readonly string[]): boolean {
  const shown = new Set(blocks.map((block) => block.blocked_user_id));
  return shown.size === new Set(ids).size && ids.every((id) => shown.has(id));
}

/**
 * The cultivators the user blocked, newest first, loaded from the chat server and loaded again when a block is
 * added or lifted elsewhere in this tab (a profile card): the client keeps the blocked ids in `client.blockedUsers`.
 */
function useBlockedUsers(client: StreamChat): { state: BlockedState; reload: () => void } {
  const [state, setState] = React.useState<BlockedState>({ status: 'loading' });
  const [attempt, setAttempt] = React.useState(0);
  const shownRef = React.useRef<BlockedUserDetails[] | null>(null);
  React.useEffect(() => {
    let cancelled = false;
    const load = () => {
      client
        .getBlockedUsers()
        .then(({ blocks }) => {
          if (cancelled) return;
          const sorted = [...blocks].sort((a, b) => b.created_at.localeCompare(a.created_at));
          shownRef.current = sorted;
          setState({ status: 'ready', blocks: sorted });
        })
        .catch(() => {
          if (!cancelled) setState({ status: 'error' });
        });
    };
    load();
    const unsubscribe = client.blockedUsers.subscribe(({ userIds }) => {
      const shown = shownRef.current;
      if (shown && !sameIds(shown, userIds)) load();
    });
    return () => {
      cancelled = true;
      unsubscribe();
    };
  }, [client, attempt]);
  const reload = React.useCallback(() => {
    setState({ status: 'loading' });
    setAttempt((count) => count + 1);
  }, []);
  return { state, reload };
}

function BlockedUserRow({ client, block }: { client: StreamChat; block: BlockedUserDetails }) {
  const [pending, setPending] = React.useState(false);
  const t = useT();
  const language = useShownLanguage();
  const name = block.blocked_user?.name || block.blocked_user_id;
  async function unblock() {
    setPending(true);
    try {
      // The client drops the id from client.blockedUsers, which reloads the list.
      await client.unBlockUser(block.blocked_user_id);
      toast.success(t('chat.blocked.unblocked', { name }));
    } catch {
      toast.error(t('chat.blocked.unblockFailed', { name }));
      setPending(false);
    }
  }
  const since = new Date(block.created_at);
  return (
    <li className="flex items-center gap-3 rounded-lg border px-3 py-2" data-testid="blocked-user">
      <UserAvatar name={name} image={block.blocked_user?.image as string | undefined} />
      <div className="min-w-0 flex-1">
        <p className="truncate font-medium">{name}</p>
        {Number.isNaN(since.getTime()) ? null : (
          <p className="text-xs text-muted-foreground">
            {t('chat.blocked.since', {
              date: dateFormat(language, { dateStyle: 'medium' }).format(since),
            })}
          </p>
        )}
      </div>
      <Button
        variant="outline"
        size="sm"
        disabled={pending}
        aria-label={t('chat.blocked.unblockName', { name })}
        onClick={() => void unblock()}
      >
        {t('chat.blocked.unblock')}
      </Button>
    </li>
  );
}

function BlockedList({ client }: { client: StreamChat }) {
  const { state, reload } = useBlockedUsers(client);
  const t = useT();
  if (state.status === 'loading') return <Skeleton className="h-16 w-full" aria-busy="true" />;
  if (state.status === 'error') {
    return (
      <div className="flex flex-wrap items-center gap-3 text-sm" role="alert">
        <CircleAlertIcon aria-hidden="true" className="size-4 text-destructive" />
        {t('chat.blocked.loadFailed')}
        <Button variant="outline" size="sm" onClick={reload}>
          {t('common.retry')}
        </Button>
      </div>
    );
  }
  if (state.blocks.length === 0) {
    return <p className="text-sm text-muted-foreground">{t('chat.blocked.none')}</p>;
  }
  return (
    <ul className="grid gap-2">
      {state.blocks.map((block) => (
        <BlockedUserRow key={block.blocked_user_id} client={client} block={block} />
      ))}
    </ul>
  );
}

/** The profile screen's "Đã chặn" card: everyone the cultivator blocked, each with "Bỏ chặn". */
export function BlockedUsersSection() {
  const session = useChatConnection();
  const t = useT();
  const headingId = React.useId();
  let body: React.ReactNode;
  if (session.status === 'error') {
    body = (
      <div className="flex flex-wrap items-center gap-3 text-sm" role="alert">
        {t('chat.blocked.chatUnavailable')}
        <Button variant="outline" size="sm" onClick={session.retry}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (session.status !== 'ready' || !session.client || session.client.anonymous) {
    body = <Skeleton className="h-16 w-full" aria-busy="true" />;
  } else {
    body = <BlockedList key={session.client.userID} client={session.client} />;
  }
  return (
    <Card role="region" aria-labelledby={headingId}>
      <CardHeader>
        <CardTitle id={headingId} className="flex items-center gap-2">
          <BanIcon aria-hidden="true" className="size-4" />
          {t('chat.blocked.title')}
        </CardTitle>
        <CardDescription>{t('chat.blocked.description')}</CardDescription>
      </CardHeader>
      <CardContent>{body}</CardContent>
    </Card>
  );
}
