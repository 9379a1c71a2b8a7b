import { chatError } from '../../../errors.ts';
import { actorWindow, inWindow } from '../access/visibility.ts';
import type { Actor } from '../access/access.ts';
import { isPlainObject, type JsonObject } from '../json.ts';
import { privacyAllows } from '../users/privacy.ts';
import { channelEvent } from '../wire/events.ts';
import { userOf, type ReadsContext } from './context.ts';

/** Stream's cap on one markChannelsDelivered call. */
export const MAX_DELIVERED_CHANNELS = 100;

/** The `{cid, id}` entries of a request, one per channel (the last one given wins). */
function deliveredEntries(value: unknown): Map<string, string> {
  if (!Array.isArray(value) || value.length > MAX_DELIVERED_CHANNELS)
    throw chatError.input(
      `latest_delivered_messages must be a list of at most ${MAX_DELIVERED_CHANNELS} {cid, id}`,
    );
  const entries = new Map<string, string>();
  for (const entry of value) {
    if (
      !isPlainObject(entry) ||
      typeof entry.cid !== 'string' ||
      typeof entry.id !== 'string' ||
      !entry.id
    )
      throw chatError.input('each of latest_delivered_messages must be {cid, id}');
    entries.set(entry.cid, entry.id);
  }
  return entries;
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
  body: JsonObject,
): Promise<void> {
  const { deps, channels, messages, users, events } = context;
  const userId = userOf(actor);
  const entries = deliveredEntries(body.latest_delivered_messages);
  const user = await users.response(actor.appId, userId);
  if (!privacyAllows(user, 'delivery_receipts')) return;
  const now = deps.clock.now();
  for (const [cid, messageId] of entries) {
    const access = await channels.access(actor, cid).catch(() => undefined);
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
