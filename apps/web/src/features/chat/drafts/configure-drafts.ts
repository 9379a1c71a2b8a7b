import type { MessageComposer } from 'stream-chat';

/** Drafts are off in stream-chat by default (SPEC.md §9); a signed-in cultivator gets them, a guest cannot write. */
export function configureDrafts(composer: MessageComposer): void {
  if (composer.client.anonymous) return;
  composer.updateConfig({ drafts: { enabled: true } });
}
