import type {
  AttachmentManagerState,
  LinkPreviewsManagerState,
  LocationComposerState,
  MessageComposerState,
} from 'stream-chat';
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
const selectComposer = ({ editedMessage, quotedMessage }: MessageComposerState) => ({
  busy: Boolean(editedMessage ?? quotedMessage),
});
const selectAttachments = ({ attachments }: AttachmentManagerState) => ({
  count: attachments.length,
});
const selectLocation = ({ location }: LocationComposerState) => ({ location });

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

/**
 * stream-chat-react draws the composer's previews (ours above included) only while some link preview is loading or
 * loaded, or something else is previewed: once the only link's preview failed, the whole block went and the card
 * vanished instead of saying "Không xem trước được". In exactly that case this draws the card itself, beside the SDK's
 * composer (moderation/member-composer.tsx).
 */
export function FailedLinkPreviewOutsideSdk() {
  const composer = useMessageComposerController();
  const { previews } = useStateStore(composer.linkPreviewsManager.state, selectPreviews);
  const { busy } = useStateStore(composer.state, selectComposer);
  const { count } = useStateStore(composer.attachmentManager.state, selectAttachments);
  const { location } = useStateStore(composer.locationComposer.state, selectLocation);
  const sdkShowsPreviews =
    busy || count > 0 || Boolean(location) || previews.some(({ state }) => state !== 'failed');
  if (sdkShowsPreviews || previews.length === 0) return null;
  return (
    <div className="str-chat__message-composer-previews dh-failed-link-preview">
      <ComposerLinkPreviews />
    </div>
  );
}
