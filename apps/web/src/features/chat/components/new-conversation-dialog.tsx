import type { UserSearchHit } from '@daohuu/domain';
import { useQuery } from '@tanstack/react-query';
import { CheckIcon, LoaderCircleIcon, SearchIcon, UsersIcon, XIcon } from 'lucide-react';
import * as React from 'react';
import { useNavigate } from 'react-router';
import { toast } from '@/lib/toast';
import { useChatContext } from 'stream-chat-react';
import { Button } from '@/components/ui/button';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Tabs, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { UserAvatar } from '@/components/user-avatar';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useT } from '@/i18n';
import { cn } from '@/lib/utils';
import { searchUsers } from '../api/chat-api';
import {
  createConversation,
  GROUP_NAME_MAX,
  type ConversationKind,
} from '../utils/create-conversation';
import { chatChannelHref } from '../utils/chat-paths';
import { RealmBadge } from './realm-badge';

const SEARCH_DEBOUNCE_MS = 300;
const MIN_QUERY_LENGTH = 1;

function useUserSearch(query: string) {
  const debounced = useDebouncedValue(query.trim(), SEARCH_DEBOUNCE_MS);
  return useQuery({
    queryKey: ['users', 'search', debounced],
    queryFn: ({ signal }) => searchUsers(debounced, signal),
    enabled: debounced.length >= MIN_QUERY_LENGTH,
    staleTime: 30_000,
  });
}

function UserRow({
  user,
  selected,
  onToggle,
}: {
  user: UserSearchHit;
  selected: boolean;
  onToggle: (user: UserSearchHit) => void;
}) {
  return (
    <li>
      <button
        type="button"
        role="checkbox"
        aria-checked={selected}
        onClick={() => onToggle(user)}
        className={cn(
          'flex w-full items-center gap-3 rounded-lg px-2 py-2 text-left transition-colors hover:bg-accent focus-visible:ring-[3px] focus-visible:ring-ring/50 focus-visible:outline-none',
          selected && 'bg-accent',
        )}
      >
        <UserAvatar name={user.daoHieu} image={user.image} />
        <span className="grid min-w-0 flex-1 gap-0.5">
          <span className="truncate font-medium">{user.daoHieu}</span>
          <RealmBadge tuVi={user.tuVi} className="w-fit" />
        </span>
        <span
          aria-hidden="true"
          className={cn(
            'flex size-5 items-center justify-center rounded-full border',
            selected ? 'border-primary bg-primary text-primary-foreground' : 'border-input',
          )}
        >
          {selected ? <CheckIcon className="size-3.5" /> : null}
        </span>
      </button>
    </li>
  );
}

/** Starts a direct message with one cultivator, or a named group with several, picked by đạo hiệu. */
export function NewConversationDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { client } = useChatContext();
  const navigate = useNavigate();
  const t = useT();
  const [kind, setKind] = React.useState<ConversationKind>('direct');
  const [query, setQuery] = React.useState('');
  const searchRef = React.useRef<HTMLInputElement>(null);
  const [selected, setSelected] = React.useState<UserSearchHit[]>([]);
  const [groupName, setGroupName] = React.useState('');
  const [creating, setCreating] = React.useState(false);
  const search = useUserSearch(query);
  const myId = client.userID;
  const results = (search.data ?? []).filter((user) => user.id !== myId);

  function reset() {
    setKind('direct');
    setQuery('');
    setSelected([]);
    setGroupName('');
  }

  function toggle(user: UserSearchHit) {
    setSelected((current) => {
      if (current.some((picked) => picked.id === user.id)) {
        return current.filter((picked) => picked.id !== user.id);
      }
      return kind === 'direct' ? [user] : [...current, user];
    });
  }

  function changeKind(next: string) {
    const nextKind: ConversationKind = next === 'group' ? 'group' : 'direct';
    setKind(nextKind);
    if (nextKind === 'direct') setSelected((current) => current.slice(0, 1));
  }

  const trimmedName = groupName.trim();
  const canCreate =
    !creating &&
    selected.length > 0 &&
    (kind === 'direct' || (trimmedName.length > 0 && trimmedName.length <= GROUP_NAME_MAX));

  async function handleCreate(event: React.FormEvent) {
    event.preventDefault();
    if (!canCreate) return;
    setCreating(true);
    try {
      const channel = await createConversation(client, {
        kind,
        memberIds: selected.map((user) => user.id),
        name: trimmedName,
      });
      onOpenChange(false);
      reset();
      if (channel.id) navigate(chatChannelHref(channel.type, channel.id));
    } catch (error) {
      console.error('Could not create the conversation.', error);
      toast.error(t('chat.newConversation.failed'));
    } finally {
      setCreating(false);
    }
  }

  const trimmedQuery = query.trim();
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        onOpenChange(next);
        if (!next) reset();
      }}
    >
      <DialogContent
        className="gap-5"
        // Opened to find someone: the name field takes the first keystroke, not the first tab.
        onOpenAutoFocus={(event) => {
          event.preventDefault();
          searchRef.current?.focus();
        }}
      >
        <DialogHeader>
          <DialogTitle>{t('chat.list.newConversation')}</DialogTitle>
          <DialogDescription>{t('chat.newConversation.description')}</DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={handleCreate}>
          <Tabs value={kind} onValueChange={changeKind}>
            <TabsList className="w-full">
              <TabsTrigger value="direct">{t('chat.newConversation.direct')}</TabsTrigger>
              <TabsTrigger value="group">
                <UsersIcon aria-hidden="true" />
                {t('chat.newConversation.group')}
              </TabsTrigger>
            </TabsList>
          </Tabs>
          {kind === 'group' ? (
            <div className="grid gap-2">
              <Label htmlFor="new-group-name">{t('chat.newConversation.groupName')}</Label>
              <Input
                id="new-group-name"
                value={groupName}
                maxLength={GROUP_NAME_MAX}
                placeholder={t('chat.newConversation.groupNamePlaceholder')}
                onChange={(event) => setGroupName(event.target.value)}
              />
            </div>
          ) : null}
          <div className="grid gap-2">
            <Label htmlFor="new-conversation-search">{t('common.daoHieu')}</Label>
            <div className="relative">
              <SearchIcon
                aria-hidden="true"
                className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-muted-foreground"
              />
              <Input
                ref={searchRef}
                id="new-conversation-search"
                type="search"
                autoComplete="off"
                className="pl-9"
                placeholder={t('chat.newConversation.searchPlaceholder')}
                value={query}
                onChange={(event) => setQuery(event.target.value)}
              />
            </div>
          </div>
          {selected.length > 0 ? (
            <ul aria-label={t('chat.newConversation.selected')} className="flex flex-wrap gap-2">
              {selected.map((user) => (
                <li key={user.id}>
                  <span className="inline-flex items-center gap-1 rounded-full border border-gold/40 bg-gold/15 py-0.5 pr-1 pl-2.5 text-sm text-gold-strong">
                    {user.daoHieu}
                    <button
                      type="button"
                      aria-label={t('chat.newConversation.unselect', { name: user.daoHieu })}
                      className="rounded-full p-0.5 hover:bg-gold/25"
                      onClick={() => toggle(user)}
                    >
                      <XIcon className="size-3.5" aria-hidden="true" />
                    </button>
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          <div className="min-h-32" aria-live="polite">
            {trimmedQuery.length < MIN_QUERY_LENGTH ? (
              <p className="py-6 text-center text-sm text-muted-foreground">
                {t('chat.newConversation.typeToSearch')}
              </p>
            ) : search.isPending ? (
              <p className="flex items-center justify-center gap-2 py-6 text-sm text-muted-foreground">
                <LoaderCircleIcon className="size-4 animate-spin" aria-hidden="true" />
                {t('chat.newConversation.searching')}
              </p>
            ) : search.isError ? (
              <p role="alert" className="py-6 text-center text-sm text-destructive">
                {t('chat.newConversation.searchFailed')}
              </p>
            ) : results.length === 0 ? (
              <p className="py-6 text-center text-sm text-muted-foreground">
                {t('chat.newConversation.noResults')}
              </p>
            ) : (
              <ul
                aria-label={t('chat.newConversation.results')}
                className="grid max-h-64 gap-1 overflow-y-auto"
              >
                {results.map((user) => (
                  <UserRow
                    key={user.id}
                    user={user}
                    selected={selected.some((picked) => picked.id === user.id)}
                    onToggle={toggle}
                  />
                ))}
              </ul>
            )}
          </div>
          <DialogFooter>
            <Button type="submit" disabled={!canCreate}>
              {creating ? <LoaderCircleIcon className="animate-spin" aria-hidden="true" /> : null}
              {kind === 'direct'
                ? t('chat.newConversation.message')
                : t('chat.newConversation.createGroup')}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
