import type { SharedLocationResponse } from '../../core/wire/types.ts';
import type { SharedLocationRow } from './repo.ts';

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
  } satisfies SharedLocationResponse;
}
