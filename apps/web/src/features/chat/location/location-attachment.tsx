import { Attachment, type AttachmentProps } from 'stream-chat-react';
import { LocationCard } from './location-card';

/** stream-chat-react's attachments, with shared locations drawn by LocationCard (no map tiles). */
export function LocationAwareAttachment(props: AttachmentProps) {
  return <Attachment {...props} Geolocation={LocationCard} />;
}
