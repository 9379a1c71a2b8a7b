import * as React from 'react';
import type { DraftResponse, StreamChat } from 'stream-chat';
import { t } from '@/i18n';

/** What the channel row shows for a saved draft: its text, or a word for a draft with only attachments. */
export function draftPreviewText(draft: Pick<DraftResponse, 'message'>): string {
  const text = (draft.message.text ?? '').replace(/\s+/g, ' ').trim();
  if (text) return text;
  return (draft.message.attachments?.length ?? 0) > 0 ? t('chat.list.attachment') : '';
}

type Listener = () => void;

/**
 * The text of each channel's saved draft (channel drafts only: a thread's draft reply is not the channel's),
 * from the server's drafts and kept current by draft.updated / draft.deleted, which the server sends to every
 * connection of the user.
 */
export class DraftPreviews {
  private readonly texts = new Map<string, string>();
  private readonly listeners = new Set<Listener>();

  get(cid: string): string | undefined {
    return this.texts.get(cid);
  }

  subscribe = (listener: Listener): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  put(draft: DraftResponse): void {
    if (draft.parent_id) return;
    const text = draftPreviewText(draft);
    if (text) this.texts.set(draft.channel_cid, text);
    else this.texts.delete(draft.channel_cid);
    this.changed();
  }

  remove(draft: Pick<DraftResponse, 'channel_cid' | 'parent_id'>): void {
    if (draft.parent_id || !this.texts.delete(draft.channel_cid)) return;
    this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

// docs/product-rules.md §9 pages the channel list by 10; the newest 100 drafts cover any list a cultivator scrolls.
const DRAFTS_LIMIT = 100;

/** Loads the user's drafts into `previews` and follows their changes; returns the unsubscribe. */
export function followDrafts(client: StreamChat, previews: DraftPreviews): () => void {
  let stopped = false;
  const subscriptions = [
    client.on('draft.updated', (event) => {
      if (event.draft) previews.put(event.draft);
    }),
    client.on('draft.deleted', (event) => {
      if (event.draft) previews.remove(event.draft);
    }),
  ];
  client
    .queryDrafts({ sort: [{ created_at: -1 }], limit: DRAFTS_LIMIT })
    .then(({ drafts }) => {
      // A draft.updated that arrived meanwhile is newer than the query's answer.
      if (stopped) return;
      for (const draft of drafts) {
        if (previews.get(draft.channel_cid) === undefined) previews.put(draft);
      }
    })
    .catch((error: unknown) => console.error('The drafts could not be loaded.', error));
  return () => {
    stopped = true;
    for (const subscription of subscriptions) subscription.unsubscribe();
  };
}

const DraftPreviewsContext = React.createContext<DraftPreviews | null>(null);

/** Follows the signed-in user's drafts for the channel rows below it; guests have none. */
export function DraftPreviewsProvider({
  client,
  children,
}: {
  client: StreamChat;
  children: React.ReactNode;
}) {
  const [previews] = React.useState(() => new DraftPreviews());
  React.useEffect(() => {
    if (client.anonymous) return;
    return followDrafts(client, previews);
  }, [client, previews]);
  return <DraftPreviewsContext value={previews}>{children}</DraftPreviewsContext>;
}

/** The saved draft's preview text for `cid`, or undefined when there is none. */
export function useDraftPreview(cid: string): string | undefined {
  const previews = React.useContext(DraftPreviewsContext);
  return React.useSyncExternalStore(previews?.subscribe ?? noSubscription, () =>
    previews?.get(cid),
  );
}

function noSubscription(): () => void {
  return () => undefined;
}
