import type { MessageComposer, MessageCompositionMiddleware } from 'stream-chat';

const KEEP_DISMISSED_ID = 'daohuu/link-previews/keep-dismissed';

/**
 * stream-chat sends `skip_enrich_url` for a dismissed preview only when the message carries some attachment, so a
 * dismissed link in a plain text message would be previewed again by the server. A dismissal is final here.
 */
export function keepDismissedPreviewsDismissed(
  composer: MessageComposer,
): MessageCompositionMiddleware {
  return {
    id: KEEP_DISMISSED_ID,
    handlers: {
      compose: ({ state, next, forward }) => {
        if (composer.linkPreviewsManager.dismissedPreviews.length === 0) return forward();
        return next({ ...state, sendOptions: { ...state.sendOptions, skip_enrich_url: true } });
      },
    },
  };
}

const guarded = new WeakSet<MessageComposer>();

/**
 * The composer re-initialises itself from every `draft.updated` event, including the echo of its own autosave, and
 * that wipes the previews: one still loading is then dropped when its answer arrives, and a dismissed one is looked
 * up again. Previews of links still in the text survive such a reset; a send or a cleared text still removes them.
 */
export function keepPreviewsAcrossResets(composer: MessageComposer): void {
  if (guarded.has(composer)) return;
  guarded.add(composer);
  const manager = composer.linkPreviewsManager;
  manager.state.subscribe((next, previous) => {
    if (!previous) return;
    const dropped = [...previous.previews].filter(([url]) => !next.previews.has(url));
    if (dropped.length === 0) return;
    // The composer resets the previews before the text: judge against the text once the reset is complete.
    queueMicrotask(() => {
      const urls = manager.config.findURLFn(composer.textComposer.text);
      const current = manager.previews;
      const lost = dropped.filter(
        ([url]) => !current.has(url) && (urls.includes(url) || urls.includes(`${url}/`)),
      );
      if (lost.length > 0) manager.state.partialNext({ previews: new Map([...lost, ...current]) });
    });
  });
}

const followed = new WeakSet<MessageComposer>();

/**
 * stream-chat clears the previews when the text is erased only while something else (a quote, an attachment) stays
 * in the composer: once the whole composition is empty it returns early to delete the draft, and a link's card stayed
 * under an empty composer until a reload. Erasing the text removes them here; a dismissal is kept, as the SDK keeps it.
 */
export function clearPreviewsWithText(composer: MessageComposer): void {
  if (followed.has(composer)) return;
  followed.add(composer);
  composer.textComposer.state.subscribe((next, previous) => {
    if (!previous || next.text.trim() !== '' || previous.text.trim() === '') return;
    const manager = composer.linkPreviewsManager;
    // A lookup still waiting out the typing pause would bring the card back with the erased link.
    manager.cancelURLEnrichment();
    manager.clearPreviews();
  });
}

/**
 * Link previews are off in stream-chat by default (docs/product-rules.md §6); our channel types turn `url_enrichment`
 * on, so a writer sees a preview 1500 ms after typing a link and can dismiss it. A guest cannot write.
 */
export function configureLinkPreviews(composer: MessageComposer): void {
  if (composer.client.anonymous) return;
  composer.updateConfig({ linkPreviews: { enabled: true, debounceURLEnrichmentMs: 1500 } });
  keepPreviewsAcrossResets(composer);
  clearPreviewsWithText(composer);
  composer.compositionMiddlewareExecutor.insert({
    middleware: [keepDismissedPreviewsDismissed(composer)],
    position: { after: 'stream-io/message-composer-middleware/link-previews' },
    unique: true,
  });
}
