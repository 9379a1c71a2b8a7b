import type { Message, SendMessageOptions } from 'stream-chat';

/**
 * Sends that failed because the connection or the server was down, kept in the browser per user so they go out
 * once the connection returns, even after a reload. Each entry keeps the message's own id: the chat server refuses a
 * second message with an id it already stored ("already exists"), so re-sending can never post it twice.
 */
export interface OutboxEntry {
  cid: string;
  message: Message & { id: string };
  options?: SendMessageOptions | undefined;
  /** When it was first queued (ms since epoch); old entries are dropped rather than sent days late. */
  queuedAt: number;
}

/** The part of Web Storage the outbox uses, so tests can hand in their own. */
export type OutboxStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export const OUTBOX_MAX_ENTRIES = 50;
/** A message larger than this (as JSON) is not kept: the user still has the failed bubble and its "Thử lại". */
export const OUTBOX_MAX_ENTRY_CHARS = 32_000;
export const OUTBOX_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;

const KEY_PREFIX = 'daohuu:outbox:v1:';

function keyOf(userId: string): string {
  return `${KEY_PREFIX}${userId}`;
}

function isEntry(value: unknown): value is OutboxEntry {
  if (!value || typeof value !== 'object') return false;
  const entry = value as Partial<OutboxEntry>;
  return (
    typeof entry.cid === 'string' &&
    typeof entry.queuedAt === 'number' &&
    !!entry.message &&
    typeof entry.message.id === 'string' &&
    entry.message.id.length > 0
  );
}

function defaultStorage(): OutboxStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can be switched off (private modes, policies): the outbox then simply keeps nothing.
    return null;
  }
}

export function createOutbox(storage: OutboxStorage | null = defaultStorage(), now = Date.now) {
  function read(userId: string): OutboxEntry[] {
    if (!storage) return [];
    let parsed: unknown;
    try {
      parsed = JSON.parse(storage.getItem(keyOf(userId)) ?? '[]');
    } catch {
      return [];
    }
    if (!Array.isArray(parsed)) return [];
    const oldest = now() - OUTBOX_MAX_AGE_MS;
    return parsed.filter(isEntry).filter((entry) => entry.queuedAt >= oldest);
  }

  function write(userId: string, entries: OutboxEntry[]): void {
    if (!storage) return;
    try {
      if (entries.length === 0) storage.removeItem(keyOf(userId));
      else storage.setItem(keyOf(userId), JSON.stringify(entries));
    } catch {
      // A full storage quota loses only the automatic retry; the bubble still offers "Thử lại".
    }
  }

  return {
    list: read,
    /** Queues (or refreshes) a failed send; the oldest entries give way past OUTBOX_MAX_ENTRIES. */
    put(userId: string, entry: Omit<OutboxEntry, 'queuedAt'>): void {
      const entries = read(userId);
      const existing = entries.find((item) => item.message.id === entry.message.id);
      const queued: OutboxEntry = { ...entry, queuedAt: existing?.queuedAt ?? now() };
      if (JSON.stringify(queued).length > OUTBOX_MAX_ENTRY_CHARS) return;
      const others = entries.filter((item) => item.message.id !== entry.message.id);
      write(userId, [...others, queued].slice(-OUTBOX_MAX_ENTRIES));
    },
    remove(userId: string, messageId: string): void {
      const entries = read(userId);
      const rest = entries.filter((item) => item.message.id !== messageId);
      if (rest.length !== entries.length) write(userId, rest);
    },
  };
}

export type Outbox = ReturnType<typeof createOutbox>;

/** The app's one outbox, in localStorage. */
export const outbox = createOutbox();
