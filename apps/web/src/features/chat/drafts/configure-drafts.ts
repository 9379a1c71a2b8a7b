import type { MessageComposer } from 'stream-chat';

/** Drafts are off in stream-chat by default (docs/product-rules.md §6); signed-in cultivators get them. */
export function configureDrafts(composer: MessageComposer): void {
  if (composer.client.anonymous) return;
  composer.updateConfig({ drafts: { enabled: true } });
}
