import * as React from 'react';
import { createPortal } from 'react-dom';
import { useT } from '@/i18n';
import './channel-draft-marker.css';
import { useDraftPreview } from './draft-previews';

/**
 * A channel row with a saved draft reads "Bản nháp: …" where the last message was (as Zalo and Telegram do), except
 * for the open channel, whose composer already shows it. stream-chat-react's row takes no preview from outside, so
 * the line is placed into the row's text column and the last-message line is hidden by CSS
 * (channel-draft-marker.css).
 */
export function ChannelDraftMarker({
  cid,
  active,
  children,
}: {
  cid: string;
  active: boolean;
  children: React.ReactNode;
}) {
  const draft = useDraftPreview(cid);
  const t = useT();
  const rowRef = React.useRef<HTMLDivElement>(null);
  const [column, setColumn] = React.useState<Element | null>(null);
  const shown = draft !== undefined && !active;
  React.useLayoutEffect(() => {
    setColumn(
      shown ? (rowRef.current?.querySelector('.str-chat__channel-list-item-data') ?? null) : null,
    );
  }, [shown]);
  return (
    <div ref={rowRef} className="dh-channel-item" data-draft={shown ? 'true' : undefined}>
      {children}
      {shown && column
        ? createPortal(
            <span className="dh-draft-preview" data-testid="draft-marker">
              <span className="dh-draft-preview__label">{t('chat.list.draftLabel')}</span> {draft}
            </span>,
            column,
          )
        : null}
    </div>
  );
}
