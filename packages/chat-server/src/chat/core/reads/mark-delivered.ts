import { ChatError } from '../../../errors.ts';
import { actorWindow, inWindow } from '../access/visibility.ts';
import type { Actor } from '../access/access.ts';
import { privacyAllows } from '../users/privacy.ts';
import { channelEvent } from '../wire/events.ts';
import { userOf, type ReadsContext } from './context.ts';

/** Stream's cap on one markChannelsDelivered call (the route's schema holds it). */
export const MAX_DELIVERED_CHANNELS = 100;

/** One entry of `latest_delivered_messages`: the newest message of `cid` the device has. */
export interface DeliveredMessage {
  cid: string;
  id: string;
}

/**
 * client.markChannelsDelivered: the user's device has received these messages. The channels' watchers hear
 * `message.delivered`, unless the user turned delivery receipts off. Only a member's delivery of a message of that
 * channel they can see counts; anything else is skipped, so the call reveals nothing. Deliveries are not stored: a
 * channel's read state carries no delivery fields, and a client learns of deliveries while it watches.
 */
export async function markDelivered(
  context: ReadsContext,
  actor: Actor,
  latest: readonly DeliveredMessage[],
): Promise<void> {
  const { deps, channels, messages, users, events } = context;
  const userId = userOf(actor);
  // One entry per channel: the last one given wins.
  const entries = new Map(latest.map(({ cid, id }) => [cid, id]));
  const user = await users.response(actor.appId, userId);
  if (!privacyAllows(user, 'delivery_receipts')) return;
  const now = deps.clock.now();
  for (const [cid, messageId] of entries) {
    // A channel the user may not reach is skipped like one they do not belong to; a failing database is not.
    const access = await channels.access(actor, cid).catch((error: unknown) => {
      if (error instanceof ChatError && error.statusCode < 500) return undefined;
      throw error;
    });
    if (!access?.membership || !access.permissions.has('read-channel')) continue;
    const message = await messages.get(actor.appId, messageId);
    if (!message || message.cid !== cid || !inWindow(actorWindow(actor, access), message)) continue;
    events.toChannel(
      actor.appId,
      cid,
      channelEvent('message.delivered', access.channel, now, {
        user,
        last_delivered_at: now,
        last_delivered_message_id: messageId,
      }),
      { skipUserIds: [userId] },
    );
  }
}
