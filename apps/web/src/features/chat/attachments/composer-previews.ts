import { LinkPreviewStatus, type LinkPreview } from 'stream-chat';

export type ComposerPreview = { state: 'loading' | 'loaded' | 'failed'; link: LinkPreview };

const SHOWN: Partial<Record<LinkPreviewStatus, ComposerPreview['state']>> = {
  [LinkPreviewStatus.LOADING]: 'loading',
  [LinkPreviewStatus.LOADED]: 'loaded',
  [LinkPreviewStatus.FAILED]: 'failed',
};

/**
 * The previews the composer shows, in the order the links appear: a dismissed one is gone for good, a pending one
 * (still inside the typing pause) is not shown yet. A link that did preview comes before one that could not, so a
 * failed first link does not hide a good second one.
 */
export function composerPreviews(previews: readonly LinkPreview[]): ComposerPreview[] {
  const shown = previews.flatMap((link) => {
    const state = SHOWN[link.status];
    return state ? [{ state, link }] : [];
  });
  return [
    ...shown.filter((preview) => preview.state !== 'failed'),
    ...shown.filter((preview) => preview.state === 'failed'),
  ];
}
