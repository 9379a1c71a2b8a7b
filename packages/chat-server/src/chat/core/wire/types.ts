import type {
  ChannelMute,
  GetUnreadCountAPIResponse,
  PollResponse as StreamPollResponse,
  UserResponse as StreamUserResponse,
} from 'stream-chat';

/**
 * Stream wire shapes, for the core and the extensions that fill them. Where the client's own type (stream-chat)
 * describes what this server sends, it is used as is; the types below are the exceptions, each saying why.
 */

/** `message.shared_location`, `me.active_live_locations`, live-location replies: the client's type fits exactly. */
export type { SharedLocationResponse } from 'stream-chat';

/** A user: stream-chat's UserResponse plus `invisible`, which Stream sends on every user (the client's type has it only on its own user). */
export type UserWireResponse = StreamUserResponse & { invisible: boolean };

/**
 * An entry of `me.channel_mutes`: the muted channel is named by its cid alone, which is all the client reads of it
 * (stream-chat's ChannelMute wants a whole ChannelResponse).
 */
export type ChannelMuteResponse = Omit<ChannelMute, 'channel'> & { channel: { cid: string } };

/**
 * A poll: `max_votes_allowed` is absent while votes are unlimited (stream-chat's type requires a number) and
 * `voting_visibility` is the plain string (stream-chat's type is an enum, which a string never satisfies).
 */
export type PollWireResponse = Omit<
  StreamPollResponse,
  'max_votes_allowed' | 'voting_visibility'
> & {
  max_votes_allowed?: number;
  voting_visibility: string;
};

type UnreadThread = GetUnreadCountAPIResponse['threads'][number];

/**
 * GET /unread (without `duration`, which the HTTP layer adds): a thread's `last_read_message_id` is null while none
 * of its messages was read (stream-chat's type says string).
 */
export type UnreadCountsResponse = Omit<GetUnreadCountAPIResponse, 'duration' | 'threads'> & {
  threads: (Omit<UnreadThread, 'last_read_message_id'> & { last_read_message_id: string | null })[];
};
