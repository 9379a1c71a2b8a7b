import type { LongPollConfig } from './longpoll-config.ts';

/** The `readyState` values of the websocket surface Connection reads. */
const OPEN = 1;
const CLOSED = 3;

/** One poll waiting for events: answered once, with the events or with none when its hold ends. */
interface Waiter {
  resolve: (events: string[]) => void;
  timer: NodeJS.Timeout;
}

export type PollLimits = Pick<
  LongPollConfig,
  'holdMs' | 'idleMs' | 'maxQueuedEvents' | 'maxQueuedBytes'
>;

/** A poll in flight: its answer, and how to give up on it when the client goes away first. */
export interface PendingPoll {
  events: Promise<string[]>;
  abandon(): void;
}

/**
 * What a Connection writes to in place of a websocket for a long-poll client: the part of ws's surface Connection
 * uses (`readyState`, `send`, `close`, `terminate`, and no `_socket`, so every frame goes through `send`). Frames wait
 * in a bounded queue for the next poll; at most one poll waits at a time (a newer one answers the older with no
 * events, so a client cannot pile up held requests). A connection nobody polls for `idleMs` ends by itself.
 */
export class PollSocket {
  readyState = OPEN;
  private queue: string[] = [];
  private queuedBytes = 0;
  private waiter: Waiter | undefined;
  private answerScheduled = false;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly limits: PollLimits,
    /** Called once when the socket ends, whichever way (close, overflow, idle expiry). */
    private readonly onEnd: (reason: string) => void,
  ) {
    this.startIdleTimer();
  }

  get isOpen(): boolean {
    return this.readyState === OPEN;
  }

  /** Queues one event's JSON text; an overflow fails the write, and Connection then terminates the socket. */
  send(text: string, done?: (error?: Error) => void): void {
    if (!this.isOpen) return;
    if (
      this.queue.length >= this.limits.maxQueuedEvents ||
      this.queuedBytes + text.length > this.limits.maxQueuedBytes
    ) {
      process.nextTick(() => done?.(new Error('long-poll queue overflow')));
      return;
    }
    this.queue.push(text);
    this.queuedBytes += text.length;
    // Answer after the hub's flush has queued everything of this turn, so one answer carries all of it.
    if (this.waiter && !this.answerScheduled) {
      this.answerScheduled = true;
      setImmediate(this.answerWaiter);
    }
  }

  close(_code?: number, reason = 'closed'): void {
    this.end(reason);
  }

  terminate(): void {
    this.end('terminated');
  }

  /** Waits for events: answered at once when some are queued, else at the first event or after `holdMs`. */
  poll(): PendingPoll {
    if (!this.isOpen) return { events: Promise.resolve([]), abandon: () => undefined };
    this.stopIdleTimer();
    this.answer(this.waiter, []);
    if (this.queue.length > 0) {
      const events = this.take();
      this.startIdleTimer();
      return { events: Promise.resolve(events), abandon: () => undefined };
    }
    let waiter: Waiter | undefined;
    const events = new Promise<string[]>((resolve) => {
      const timer = setTimeout(() => this.answer(waiter, []), this.limits.holdMs);
      waiter = { resolve, timer };
    });
    this.waiter = waiter;
    return { events, abandon: () => this.answer(waiter, []) };
  }

  private readonly answerWaiter = (): void => {
    this.answerScheduled = false;
    if (this.waiter && this.queue.length > 0) this.answer(this.waiter, this.take());
  };

  /** Settles `waiter` if it is the current one; the idle clock runs from then until the next poll. */
  private answer(waiter: Waiter | undefined, events: string[]): void {
    if (!waiter || waiter !== this.waiter) return;
    this.waiter = undefined;
    clearTimeout(waiter.timer);
    waiter.resolve(events);
    if (this.isOpen) this.startIdleTimer();
  }

  private take(): string[] {
    const events = this.queue;
    this.queue = [];
    this.queuedBytes = 0;
    return events;
  }

  /** The waiting poll gets what was queued before the end; later polls find the connection gone (code 46). */
  private end(reason: string): void {
    if (!this.isOpen) return;
    this.readyState = CLOSED;
    this.stopIdleTimer();
    const waiter = this.waiter;
    const events = this.take();
    if (waiter) {
      this.waiter = undefined;
      clearTimeout(waiter.timer);
      waiter.resolve(events);
    }
    this.onEnd(reason);
  }

  private startIdleTimer(): void {
    this.stopIdleTimer();
    this.idleTimer = setTimeout(() => this.end('idle'), this.limits.idleMs);
    this.idleTimer.unref();
  }

  private stopIdleTimer(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
  }
}

/** The body of a poll answer, `{"events":[…]}`, built from the events' JSON texts without parsing them again. */
export function pollAnswer(events: readonly string[]): string {
  return `{"events":[${events.join(',')}]}`;
}
