import type { EventTypes } from 'stream-chat';

/**
 * Event types the server sends. The client's own union (`EventTypes` from stream-chat) is the source of truth, so a
 * misspelt type fails to compile; the few the client only raises locally are left out.
 */
export type ServerEventType = Exclude<
  EventTypes,
  | 'all'
  | 'channels.queried'
  | 'offline_reactions.queried'
  | 'connection.changed'
  | 'connection.recovered'
  | 'transport.changed'
  | 'message.read_locally'
  | 'capabilities.changed'
>;

/** What every channel event names of its channel; a channel row satisfies it. */
export interface EventChannelRef {
  cid: string;
  id: string;
  type: string;
  member_count: number;
}

export interface ChannelEventBase<T extends ServerEventType> {
  type: T;
  cid: string;
  channel_id: string;
  channel_type: string;
  channel_member_count: number;
  created_at: string;
}

export interface UserEventBase<T extends ServerEventType> {
  type: T;
  created_at: string;
}

/**
 * The one constructor of channel events: `cid`, `channel_id`, `channel_type` and `channel_member_count` are what
 * stream-chat uses to find the channel in its state, so every channel event carries them the same way.
 */
export function channelEvent<T extends ServerEventType, F extends object>(
  type: T,
  channel: EventChannelRef,
  createdAt: string,
  fields: F,
): ChannelEventBase<T> & F {
  return {
    type,
    cid: channel.cid,
    channel_id: channel.id,
    channel_type: channel.type,
    channel_member_count: channel.member_count,
    created_at: createdAt,
    ...fields,
  };
}

/** Events about a user or sent to one user's connections, not tied to a channel (`user.updated`, `reminder.*`). */
export function userEvent<T extends ServerEventType, F extends object>(
  type: T,
  createdAt: string,
  fields: F,
): UserEventBase<T> & F {
  return { type, created_at: createdAt, ...fields };
}
