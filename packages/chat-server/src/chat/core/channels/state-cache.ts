import type { MessageRow } from '../messages/repo.ts';
import type { ChannelRow, MemberRow } from './repo.ts';

/*
 * A reconnect storm is thousands of clients asking for the same channel's state at once. The rows every viewer
 * starts from (the newest messages, the current pins, the first page of members) are loaded once per channel
 * version and shared; everything that depends on the viewer stays per request: the visibility rule
 * (access/visibility.ts `inWindow`) is checked against every shared message row, and a viewer the rows do not fit
 * (a hidden-history bound, a shadowed or pending message that is not theirs, an expired pin) gets the per-viewer
 * query instead. Reactions, users, reads and the extensions' fields are assembled per request as before.
 *
 * `channels.state_version` (migration 0023) is bumped by triggers on every write to the channel's messages and
 * members, on any node. Rows are labelled with the version read before loading them, so a label never claims rows
 * older than its version.
 */

/** How many channels keep their rows on one node (least recently used dropped first). */
const MAX_CHANNELS = 1_000;

type Rows<T> = readonly Readonly<T>[];

interface Entry {
  version: number;
  parts: Map<string, Promise<Rows<unknown>>>;
}

export interface ChannelStateCache {
  /** The newest `limit` channel-view messages of `channel` for everyone (no bound, author-only rows included). */
  latestMessages(
    channel: ChannelRow,
    limit: number,
    load: () => Promise<MessageRow[]>,
  ): Promise<Rows<MessageRow>>;
  /** The current pins of `channel` for everyone, as loaded at the version; the caller re-checks expiry. */
  pinned(channel: ChannelRow, load: () => Promise<MessageRow[]>): Promise<Rows<MessageRow>>;
  /** One page of the channel's members. */
  members(
    channel: ChannelRow,
    limit: number,
    offset: number,
    load: () => Promise<MemberRow[]>,
  ): Promise<Rows<MemberRow>>;
}

export function createChannelStateCache(maxChannels = MAX_CHANNELS): ChannelStateCache {
  const entries = new Map<string, Entry>();

  function entryFor(channel: ChannelRow): Entry {
    const key = `${channel.app_id}\0${channel.cid}`;
    let entry = entries.get(key);
    if (entry && entry.version === channel.state_version) {
      // Re-inserted so the Map's order is least recently used first.
      entries.delete(key);
      entries.set(key, entry);
      return entry;
    }
    entry = { version: channel.state_version, parts: new Map() };
    entries.set(key, entry);
    if (entries.size > maxChannels) entries.delete(entries.keys().next().value!);
    return entry;
  }

  function shared<T>(
    channel: ChannelRow,
    part: string,
    load: () => Promise<T[]>,
  ): Promise<Rows<T>> {
    const entry = entryFor(channel);
    let rows = entry.parts.get(part) as Promise<Rows<T>> | undefined;
    if (!rows) {
      // The promise is shared, so the hundreds of watches arriving together load the rows once.
      rows = load().then((loaded) => Object.freeze(loaded.map((row) => Object.freeze(row))));
      entry.parts.set(part, rows);
      rows.catch(() => {
        if (entry.parts.get(part) === rows) entry.parts.delete(part);
      });
    }
    return rows;
  }

  return {
    latestMessages: (channel, limit, load) => shared(channel, `messages:${limit}`, load),
    pinned: (channel, load) => shared(channel, 'pinned', load),
    members: (channel, limit, offset, load) => shared(channel, `members:${limit}:${offset}`, load),
  };
}
