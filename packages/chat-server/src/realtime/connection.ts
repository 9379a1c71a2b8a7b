import type { Duplex } from 'node:stream';
import type { WebSocket } from 'ws';
import type { Frame } from './frame.ts';

/** The identity behind one websocket, as the hub and services see it. */
export interface ConnectionIdentity {
  id: string;
  appId: string;
  userId: string;
  role: string;
  anonymous: boolean;
}

/** What a connection is made of: its identity, the socket it writes to, and what to do when a write fails. */
export interface ConnectionOptions extends ConnectionIdentity {
  socket: WebSocket;
  /** A socket with more than this many bytes unsent is a slow consumer and is closed. */
  maxBufferedBytes: number;
  onBroken: (connection: Connection, reason: string) => void;
}

/**
 * One client websocket on this node with its outbox. Frames queued during an event-loop turn are written together
 * (one corked write per socket per turn, the biggest fan-out lever); a failed or overflowing write closes it.
 */
export class Connection implements ConnectionIdentity {
  readonly watching = new Set<string>();
  readonly presenceOf = new Set<string>();
  private outbox: Frame[] = [];
  private spare: Frame[] = [];
  private closed = false;
  private readonly raw: Duplex | undefined;

  readonly id: string;
  readonly appId: string;
  readonly userId: string;
  readonly role: string;
  readonly anonymous: boolean;
  private readonly socket: WebSocket;
  private readonly maxBufferedBytes: number;
  private readonly onBroken: (connection: Connection, reason: string) => void;

  constructor(options: ConnectionOptions) {
    ({
      id: this.id,
      appId: this.appId,
      userId: this.userId,
      role: this.role,
      anonymous: this.anonymous,
      socket: this.socket,
      maxBufferedBytes: this.maxBufferedBytes,
      onBroken: this.onBroken,
    } = options);
    // ws writes frames straight to its net.Socket when compression is off (our setting); writing our pre-built
    // frames to the same socket keeps byte order and skips re-framing per socket. Fall back to ws.send otherwise.
    const internal = this.socket as unknown as {
      _socket?: Duplex;
      _extensions?: Record<string, unknown>;
    };
    const compressed = internal._extensions && Object.keys(internal._extensions).length > 0;
    this.raw = compressed ? undefined : internal._socket;
  }

  get isOpen(): boolean {
    return !this.closed && this.socket.readyState === 1;
  }

  /** Queues a frame; returns true when the outbox went from empty to non-empty (the hub schedules a flush). */
  enqueue(frame: Frame): boolean {
    if (!this.isOpen) return false;
    this.outbox.push(frame);
    return this.outbox.length === 1;
  }

  flush(): void {
    const frames = this.outbox;
    if (frames.length === 0) return;
    // Two outboxes take turns, so a flush allocates nothing (10,000 sockets flush per fanned-out message).
    this.outbox = this.spare;
    this.spare = frames;
    try {
      if (!this.isOpen) return;
      const raw = this.raw;
      if (raw && !raw.destroyed) {
        // A failed write also errors the socket, which ws turns into 'close': the hub forgets us then.
        if (frames.length === 1) {
          raw.write(frames[0]!.wire());
        } else {
          raw.cork();
          for (const frame of frames) raw.write(frame.wire());
          raw.uncork();
        }
        if (raw.writableLength > this.maxBufferedBytes) this.fail('slow consumer');
      } else {
        for (const frame of frames) this.socket.send(frame.text, this.onWriteDone);
      }
    } catch {
      this.fail('write failed');
    } finally {
      frames.length = 0;
    }
  }

  private readonly onWriteDone = (error?: Error | null): void => {
    if (error) this.fail('write failed');
  };

  private fail(reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.outbox.length = 0;
    this.socket.terminate();
    this.onBroken(this, reason);
  }

  close(code: number, reason: string): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    this.socket.close(code, reason);
  }

  markClosed(): void {
    this.closed = true;
    this.outbox.length = 0;
  }
}
