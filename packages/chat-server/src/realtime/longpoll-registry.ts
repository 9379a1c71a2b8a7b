import type { Actor } from '../chat/core/access/access.ts';
import { chatError } from '../errors.ts';
import { ConcurrencyGate } from '../http/rate-limit.ts';
import type { Connection } from './connection.ts';
import type { LongPollConfig } from './longpoll-config.ts';
import type { PollSocket } from './longpoll-socket.ts';

/** One open long-poll connection on this node. */
export interface LongPollEntry {
  connection: Connection;
  socket: PollSocket;
  /** The address key it was opened from: an anonymous connection is only ever polled from there. */
  address: string;
}

/** Who opens a connection, for the caps. */
export interface LongPollOwner {
  appId: string;
  userId: string;
  anonymous: boolean;
  address: string;
}

type Caps = Pick<LongPollConfig, 'perUser' | 'perAddress' | 'perNode'>;

/**
 * The long-poll connections of this node by id, with the caps that keep one client from pinning memory: open
 * connections per user, per address and per node (each holds a queue and at most one waiting request).
 */
export class LongPollRegistry {
  private readonly entries = new Map<string, LongPollEntry>();
  private readonly gate = new ConcurrencyGate();

  constructor(private readonly caps: Caps) {}

  get size(): number {
    return this.entries.size;
  }

  /** Takes the places a new connection needs (code 9 when a cap is reached); the release frees them all once. */
  admit(owner: LongPollOwner): () => void {
    const places: (() => void)[] = [];
    const release = () => places.forEach((free) => free());
    const take = (key: string, limit: number, what: string) => {
      const free = this.gate.enter(key, limit);
      if (!free) {
        release();
        throw chatError.rateLimited(
          `Too many requests: ${what}; close one before opening another.`,
        );
      }
      places.push(free);
    };
    take('node', this.caps.perNode, 'this server holds as many long-poll connections as it may');
    take(
      `a\n${owner.address}`,
      this.caps.perAddress,
      'too many long-poll connections from this address',
    );
    if (!owner.anonymous)
      take(
        `u\n${owner.appId}\n${owner.userId}`,
        this.caps.perUser,
        'this user already has as many long-poll connections as allowed',
      );
    return release;
  }

  add(entry: LongPollEntry): void {
    this.entries.set(entry.connection.id, entry);
  }

  delete(connectionId: string): void {
    this.entries.delete(connectionId);
  }

  /**
   * The caller's own connection: a user's for that user of that app, an anonymous one for an anonymous caller from
   * the address that opened it. Anything else, even an existing connection of someone else, is unknown (code 46).
   */
  owned(connectionId: string | undefined, actor: Actor, address: string): LongPollEntry {
    const entry = connectionId ? this.entries.get(connectionId) : undefined;
    if (entry && entry.socket.isOpen && ownedBy(entry, actor, address)) return entry;
    throw chatError.connectionNotFound(
      connectionId
        ? `connection_id ${connectionId} is not an open long-poll connection of yours; connect again`
        : 'connection_id is required; open a long-poll connection first',
    );
  }
}

function ownedBy(entry: LongPollEntry, actor: Actor, address: string): boolean {
  const { connection } = entry;
  if (actor.isServer || connection.appId !== actor.appId) return false;
  if (actor.userId === null) return connection.anonymous && entry.address === address;
  return !connection.anonymous && connection.userId === actor.userId;
}
