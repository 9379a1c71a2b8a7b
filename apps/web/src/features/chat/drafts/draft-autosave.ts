import type { MessageComposer } from 'stream-chat';

/** How long typing must pause before the draft is written to the server. */
export const DRAFT_SAVE_DELAY_MS = 800;

/**
 * Saves the composer's draft on the server shortly after each local change. stream-chat-react only saves a draft
 * when the composer unmounts, which never happens on a reload or when the tab is closed; saving as the user types
 * makes the text survive both and reach the user's other devices. `createDraft` itself skips empty compositions
 * and changes that came from the server (docs/product-rules.md §6), and the composer deletes the draft once it is empty
 * again (after a send, or when the text is erased). Returns the unsubscribe.
 */
export function autosaveDrafts(
  composer: MessageComposer,
  delayMs = DRAFT_SAVE_DELAY_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  const save = (force = false) => {
    timer = null;
    // The server echoes every save as draft.updated, and the composer re-initialises itself from it, which closes
    // an open "@" suggestion list under the cultivator's fingers; wait until they pick a name or move on.
    if (!force && composer.textComposer.suggestions) {
      timer = setTimeout(save, delayMs);
      return;
    }
    if (composer.compositionIsEmpty || !composer.lastChangeOriginIsLocal) return;
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
  };
}
