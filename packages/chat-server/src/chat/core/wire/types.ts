/**
 * Stream wire shapes the client's own types do not describe exactly (stream-chat marks most fields optional; these
 * are what this server always sends). Shared by the core and the extensions that fill them.
 */

/** Stream's SharedLocationResponse: `message.shared_location`, `me.active_live_locations`, live-location replies. */
export interface SharedLocationResponse {
  channel_cid: string;
  message_id: string;
  user_id: string;
  created_by_device_id: string;
  latitude: number;
  longitude: number;
  end_at?: string;
  created_at: string;
  updated_at: string;
}
