import { useChatContext, useLiveLocationSharingManager } from 'stream-chat-react';
import { getLocationDeviceId } from './device-id';
import { watchBrowserLocation } from './watch-location';

/**
 * Runs stream-chat's live-location manager while the chat is open: it sends the browser's position for this
 * device's active live locations and drops them when they expire. Renders nothing.
 */
export function LiveLocationSharing() {
  const { client } = useChatContext();
  useLiveLocationSharingManager({
    client: client.anonymous ? null : client,
    getDeviceId: getLocationDeviceId,
    watchLocation: watchBrowserLocation,
  });
  return null;
}
