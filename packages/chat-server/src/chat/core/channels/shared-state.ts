import type { ChannelType } from '../channel-types.ts';
import type { ChannelRow } from './repo.ts';

/*
 * A reconnect storm is thousands of viewers with nothing of their own in a channel (not members, not the server)
 * asking for its state at once. What they all see alike, the channel object (for one set of own capabilities), the
 * first page of members and the read states, is serialised once and its text reused; what is theirs (the messages,
 * which carry their own reactions, their draft and pending messages, the watcher count) is still built per request
 * and joined to that text (state.ts `sharedAnswer`).
 *
 * A shared part is used only while everything it was built from still holds:
 * - the channel row is the same, field for field (`state_version` included, which every write to the channel's
 *   messages and members bumps, on any node);
 * - the channel's type object is the same (an update of the type makes a new one);
 * - no channel event other than typing and watching has reached this node since (Hub.channelStamp, which also
 *   covers read states: a read is announced on the channel). The stamp is only known while this node is
 *   subscribed to the channel, as it is for every watching viewer;
 * - the users it shows have the same online flags (the caller checks them);
 * - it is younger than SHARED_TTL_MS, the bound for what nothing announces on the channel (a user's new name or
 *   last activity).
 */

/** How long a shared part may be reused at most. */
const SHARED_TTL_MS = 1_000;

/** How many channels keep shared parts on one node (least recently used dropped first). */
const MAX_CHANNELS = 1_000;

/** The text of the viewer-neutral fields of a channel state, and the users it shows. */
export interface SharedPart {
  /** `"channel":…,"members":…,…`: fields of the answer object, without the braces. */
  text: string;
  userIds: readonly string[];
  /** Those of `userIds` that were online when it was built. */
  online: ReadonlySet<string>;
}

/** What a shared part was built from; a part is reused only for the same origin. */
interface SharedOrigin {
  channel: ChannelRow;
  type: ChannelType;
  stamp: number;
}

interface Entry {
  channel: ChannelRow;
  type: ChannelType;
  stamp: number;
  bornAt: number;
  parts: Map<string, Promise<SharedPart>>;
}

export interface SharedStateCache {
  /**
   * The part for `key` (the page and capabilities it is for) built from `origin`: the one already built from the
   * same origin, else what `build` makes. A build that fails is not kept.
   */
  part(origin: SharedOrigin, key: string, build: () => Promise<SharedPart>): Promise<SharedPart>;
  /** Drops the parts of a channel (one whose users' online flags changed). */
  drop(channel: ChannelRow): void;
}

export function createSharedStateCache(
  now: () => number = Date.now,
  maxChannels = MAX_CHANNELS,
): SharedStateCache {
  const entries = new Map<string, Entry>();
  const keyOf = (channel: ChannelRow) => `${channel.app_id}\0${channel.cid}`;

  function entryFor(origin: SharedOrigin): Entry {
    const key = keyOf(origin.channel);
    const at = now();
    const found = entries.get(key);
    entries.delete(key);
    if (
      found &&
      sameFields(found.channel, origin.channel) &&
      found.type === origin.type &&
      found.stamp === origin.stamp &&
      at - found.bornAt < SHARED_TTL_MS
    ) {
      // Re-inserted so the Map's order is least recently used first.
      entries.set(key, found);
      return found;
    }
    const entry: Entry = {
      channel: origin.channel,
      type: origin.type,
      stamp: origin.stamp,
      bornAt: at,
      parts: new Map(),
    };
    entries.set(key, entry);
    if (entries.size > maxChannels) entries.delete(entries.keys().next().value!);
    return entry;
  }

  return {
    part(origin, key, build) {
      const entry = entryFor(origin);
      let part = entry.parts.get(key);
      if (!part) {
        part = build();
        entry.parts.set(key, part);
        const built = part;
        built.catch(() => {
          if (entry.parts.get(key) === built) entry.parts.delete(key);
        });
      }
      return part;
    },
    drop(channel) {
      entries.delete(keyOf(channel));
    },
  };
}

/**
 * The same row field for field. Compared in place rather than as JSON text: serialising the row on every watch cost
 * more than the rest of the cache lookup. Every channel column is a string, a number or null, so `===` decides.
 */
function sameFields(a: ChannelRow, b: ChannelRow): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof ChannelRow)[];
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => a[key] === b[key]);
}
