import type { MessageComposer, TextComposerState } from 'stream-chat';

/** How long typing must pause before the draft is written to the server. */
export const DRAFT_SAVE_DELAY_MS = 800;

/**
 * Saves the composer's draft on the server shortly after each local change. stream-chat-react only saves a draft
 * when the composer unmounts, which never happens on a reload or when the tab is closed; saving as the user types
 * makes the text survive both and reach the user's other devices. `createDraft` itself skips empty compositions
 * and changes that came from the server (docs/product-rules.md §6), and the composer deletes the draft once it is empty
 * again (after a send, or when the text is erased). Returns the unsubscribe.
 */
/** What a save sent: the text and the mentioned user ids, to recognise the server's echo of it. */
interface SavedDraft {
  text: string;
  mentionIds: string;
}

function savedFormOf(composer: MessageComposer): SavedDraft {
  const { text, mentionedUsers } = composer.textComposer;
  return { text, mentionIds: mentionedUsers.map((user) => user.id).join(',') };
}

/**
 * The server answers each save with draft.updated to every connection of the user, this one included, and the
 * composer re-initialises itself from it. For our own echo that loses what the cultivator typed meanwhile, closes
 * an open "@" list and turns mentions into bare ids (drafts carry `mentioned_users` as ids), which then drop out of
 * the message. So the text composer's state from just before the echo is put back. The composer subscribes to
 * draft.updated before this (it registers when it mounts), so its handler has already run when ours does.
 */
function undoOwnEcho(composer: MessageComposer, lastSaved: () => SavedDraft | null): () => void {
  let beforeLatest: TextComposerState | undefined;
  const stopTracking = composer.textComposer.state.subscribe((_next, previous) => {
    beforeLatest = previous;
  });
  const { unsubscribe } = composer.client.on('draft.updated', (event) => {
    const draft = event.draft;
    const saved = lastSaved();
    if (!draft || !saved || !beforeLatest) return;
    if (draft.channel_cid !== composer.channel.cid) return;
    if ((draft.parent_id ?? null) !== (composer.threadId ?? null)) return;
    if ((draft.message.text ?? '') !== saved.text || composer.editedMessage) return;
    // Only when the composer did re-initialise from this echo (its text is now the draft's).
    if (composer.textComposer.text !== saved.text) return;
    composer.textComposer.state.next(beforeLatest);
  });
  return () => {
    stopTracking();
    unsubscribe();
  };
}

export function autosaveDrafts(
  composer: MessageComposer,
  delayMs = DRAFT_SAVE_DELAY_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let lastSaved: SavedDraft | null = null;
  const stopUndoingEcho = undoOwnEcho(composer, () => lastSaved);
  const save = (force = false) => {
    timer = null;
    // The server echoes every save as draft.updated, and the composer re-initialises itself from it, which closes
    // an open "@" suggestion list under the cultivator's fingers; wait until they pick a name or move on.
    if (!force && composer.textComposer.suggestions) {
      timer = setTimeout(save, delayMs);
      return;
    }
    if (composer.compositionIsEmpty) lastSaved = null;
    if (composer.compositionIsEmpty || !composer.lastChangeOriginIsLocal) return;
    // Putting the state back after an echo counts as a change; saving the same draft again would loop.
    const current = savedFormOf(composer);
    if (
      lastSaved &&
      lastSaved.text === current.text &&
      lastSaved.mentionIds === current.mentionIds
    ) {
      return;
    }
    lastSaved = current;
    composer.createDraft().catch((error: unknown) => {
      console.error('The draft could not be saved.', error);
    });
  };
  const flush = () => {
    if (timer === null) return;
    clearTimeout(timer);
    save(true);
  };
  const unsubscribe = composer.editingAuditState.subscribeWithSelector(
    ({ lastChange }) => ({ stateUpdate: lastChange.stateUpdate }),
    (_next, previous) => {
      if (previous === undefined) return;
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(save, delayMs);
    },
  );
  // Leaving the page before the pause is over still sends the latest text (best effort: the request may be cut).
  window.addEventListener('pagehide', flush);
  // No flush here: when the composer unmounts (another channel is opened), stream-chat-react saves the draft itself.
  return () => {
    window.removeEventListener('pagehide', flush);
    if (timer !== null) clearTimeout(timer);
    unsubscribe();
    stopUndoingEcho();
  };
}
