import type { MessageResponse } from '../../core/messages/serialize.ts';
import type { UserResponse } from '../../core/users/serialize.ts';
import type { ReminderRow } from './repo.ts';

/** What every message carries for its viewer (`message.reminder`); `remind_at` absent = a bookmark. */
export interface ReminderResponseBase {
  channel_cid: string;
  message_id: string;
  user_id: string;
  remind_at?: string;
  created_at: string;
  updated_at: string;
}

export interface ReminderResponse extends ReminderResponseBase {
  user: UserResponse;
  message: MessageResponse;
}

export function toReminderBase(row: ReminderRow): ReminderResponseBase {
  return {
    channel_cid: row.cid,
    message_id: row.message_id,
    user_id: row.user_id,
    ...(row.remind_at ? { remind_at: row.remind_at } : {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
