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

/** The keys stream-chat finds an event's channel by; a channel row satisfies it. */
export interface ChannelKeys {
  cid: string;
  id: string;
  type: string;
}

/** What every counted channel event names of its channel; a channel row satisfies it. */
export interface EventChannelRef extends ChannelKeys {
  member_count: number;
}

export interface ChannelActivityEventBase<T extends string> {
  type: T;
  cid: string;
  channel_id: string;
  channel_type: string;
  created_at: string;
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

/** The channel keys of a cid (`type:id`), for code that holds only the cid of a channel (a poll's). */
export function channelKeysOf(cid: string): ChannelKeys {
  const at = cid.indexOf(':');
  return { cid, id: cid.slice(at + 1), type: cid.slice(0, at) };
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

/**
 * Channel events that, as on Stream, do not carry `channel_member_count`: typing, reactions, polls, and the
 * `message.updated` a removed poll causes. Otherwise built exactly like `channelEvent`.
 */
export function channelActivityEvent<T extends ServerEventType, F extends object>(
  type: T,
  channel: ChannelKeys,
  createdAt: string,
  fields: F,
): ChannelActivityEventBase<T> & F {
  return activityEvent(type, channel, createdAt, fields);
}

/**
 * A client's custom event (`POST /channels/{type}/{id}/event`): its type is the client's own name, so it cannot be
 * a `ServerEventType`; the events service refuses names the server owns before building it.
 */
export function customChannelEvent<F extends object>(
  type: string,
  channel: ChannelKeys,
  createdAt: string,
  fields: F,
): ChannelActivityEventBase<string> & F {
  return activityEvent(type, channel, createdAt, fields);
}

function activityEvent<T extends string, F extends object>(
  type: T,
  channel: ChannelKeys,
  createdAt: string,
  fields: F,
): ChannelActivityEventBase<T> & F {
  return {
    type,
    cid: channel.cid,
    channel_id: channel.id,
    channel_type: channel.type,
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
