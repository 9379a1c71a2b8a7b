import type { SharedLocationRow } from './repo.ts';

/** Stream's SharedLocationResponse: `message.shared_location`, and the flat reply of the live-location update. */
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

export function toLocationResponse(row: SharedLocationRow): SharedLocationResponse {
  return {
    channel_cid: row.cid,
    message_id: row.message_id,
    user_id: row.user_id,
    created_by_device_id: row.created_by_device_id,
    latitude: Number(row.latitude),
    longitude: Number(row.longitude),
    ...(row.end_at ? { end_at: row.end_at } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
