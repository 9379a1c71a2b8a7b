import type { MessageComposer } from 'stream-chat';

/** The notification text of docs/product-rules.md §7; vi-client-messages.json translates it. */
export const DRAFT_LOAD_FAILED = 'Failed to get the draft';

/**
 * Fetches the composer's draft from the server and puts it into the composer, unless the user has started typing.
 * The channel list already carries each channel's draft, but it may be minutes old when the channel is opened (the
 * draft may have been written on another device since). stream-chat only logs a failed load; here the user is told.
 */
export async function loadDraft(composer: MessageComposer): Promise<void> {
  if (!composer.config.drafts.enabled || composer.editedMessage) return;
  try {
    const { draft } = await composer.channel.getDraft({
      parent_id: composer.threadId ?? undefined,
    });
    if (draft && composer.contentIsEmpty && !composer.editedMessage) {
      composer.initState({ composition: draft });
    }
  } catch (error) {
    // The server answers 404 when there is simply no draft yet.
    if (isNotFound(error)) return;
    composer.client.notifications.addError({
      message: DRAFT_LOAD_FAILED,
      origin: { emitter: 'MessageComposer', context: { composer } },
      options: { type: 'api:draft:get:failed' },
    });
  }
}

function isNotFound(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const response = (error as { response?: { status?: number } }).response;
  return response?.status === 404;
}
