import type { LinkPreviewsManagerState } from 'stream-chat';
import {
  BaseImage,
  Button,
  useComponentContextIcons,
  useMessageComposerController,
  useStateStore,
  useTranslationContext,
} from 'stream-chat-react';
import { composerPreviews, type ComposerPreview } from './composer-previews';
import './link-previews.css';

const selectPreviews = (state: LinkPreviewsManagerState) => ({
  previews: composerPreviews([...state.previews.values()]),
});

function PreviewBody({ preview }: { preview: ComposerPreview }) {
  const { t } = useTranslationContext();
  if (preview.state === 'loading') {
    return (
      <div className="str-chat__link-preview-card__content-title" role="status">
        {t('Loading the link preview…')}
      </div>
    );
  }
  if (preview.state === 'failed') {
    return (
      <div className="str-chat__link-preview-card__content-title">
        {t('No preview for this link')}
      </div>
    );
  }
  return (
    <>
      <div className="str-chat__link-preview-card__content-title">{preview.link.title}</div>
      {preview.link.text ? (
        <div className="str-chat__link-preview-card__content-description">{preview.link.text}</div>
      ) : null}
    </>
  );
}

function PreviewCard({ preview, onDismiss }: { preview: ComposerPreview; onDismiss: () => void }) {
  const { t } = useTranslationContext();
  const { IconLink, IconXmarkSmall } = useComponentContextIcons();
  const { link } = preview;
  const image = preview.state === 'loaded' ? (link.image_url ?? link.thumb_url) : undefined;
  return (
    <div
      className={`str-chat__link-preview-card dh-link-preview dh-link-preview--${preview.state}`}
      data-testid="link-preview-card"
      data-state={preview.state}
    >
      {image ? (
        <BaseImage
          alt={link.title ?? ''}
          className="str-chat__attachment-preview__thumbnail"
          src={image}
        />
      ) : null}
      <div className="str-chat__link-preview-card__content">
        <PreviewBody preview={preview} />
        <div className="str-chat__link-preview-card__content__url">
          {IconLink ? <IconLink /> : null}
          <span>{link.og_scrape_url}</span>
        </div>
      </div>
      <Button
        aria-label={t('Dismiss the link preview')}
        circular
        className="str-chat__attachment-preview__remove-button str-chat__link-preview-card__dismiss-button"
        data-testid="link-preview-card-dismiss-btn"
        onClick={onDismiss}
        type="button"
      >
        {IconXmarkSmall ? <IconXmarkSmall /> : null}
      </Button>
    </div>
  );
}

/**
 * The composer's link preview, in place of stream-chat-react's list (which shows an empty card while loading and
 * nothing at all when the server cannot preview a link): "loading", the card, or a quiet "no preview", each with a
 * × that dismisses it for this message (docs/product-rules.md, link previews).
 */
export function ComposerLinkPreviews() {
  const { linkPreviewsManager } = useMessageComposerController();
  const { previews } = useStateStore(linkPreviewsManager.state, selectPreviews);
  const [first] = previews;
  if (!first) return null;
  return (
    <div className="str-chat__link-preview-list">
      <PreviewCard
        key={first.link.og_scrape_url}
        preview={first}
        onDismiss={() => linkPreviewsManager.dismissPreview(first.link.og_scrape_url)}
      />
    </div>
  );
}
