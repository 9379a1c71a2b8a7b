import type { Transaction } from 'kysely';
import type { Database, Db } from './schema.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

export type WriteOp<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  op: WriteOp<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  /** When, at the latest, this write's batch starts (`performance.now()` time). */
  due: number;
}

/** How a write may wait for others to share its commit. */
export interface WriteOptions {
  /**
   * The caller can wait a little longer: a websocket handshake's user upsert and address record, whose client
   * waits for a network round trip anyway. Such a write lingers up to `patientLingerMs` while writes keep coming.
   */
  patient?: boolean;
}

/** The options of a patient write (see WriteOptions). */
export const PATIENT: WriteOptions = { patient: true };

/**
 * Group commit: writes enqueued in the same event-loop turn run in one transaction, and each caller's promise
 * settles only after that transaction committed (so an acknowledged send is durable). If the batch fails, every
 * operation is retried alone, so one bad write (a duplicate id) fails only its own caller.
 *
 * Each write may wait a while for later writes to join its commit, and a batch starts when its most urgent write is
 * due. A write waits only while writes keep coming (the previous batch began less than its linger ago), so an
 * occasional write starts at once:
 * - an ordinary write waits `lingerMs`, and only after a small batch (fewer than LINGER_BELOW writes): concurrent
 *   sends fill their batches by themselves and would only wait longer for nothing;
 * - a patient write (`WriteOptions.patient`) waits `patientLingerMs` whatever the last batch held. In a reconnect
 *   storm each handshake arrives in its own turn, and every commit (Kysely's transaction, the WAL write) costs
 *   about as much as a whole handshake's own work: a few commits a second instead of hundreds is a tenth of the
 *   connect's CPU (BENCHMARKS.md, reconnect storm).
 * An ordinary write arriving while patient ones linger brings the batch forward to its own due time.
 */
export interface WriteQueue {
  run<T>(op: WriteOp<T>, options?: WriteOptions): Promise<T>;
  /** Resolves when everything enqueued so far has settled. */
  drain(): Promise<void>;
}

const LINGER_BELOW = 8;

export function createWriteQueue(
  db: Db,
  maxBatch: number,
  lingerMs = 0,
  patientLingerMs = lingerMs,
): WriteQueue {
  const queue: Pending[] = [];
  let lastBatchAt = -Infinity;
  let lastBatchSize = 0;
  let busy = false;
  /** The pending wake-up of the worker and when it fires; none while the worker runs. */
  let wake: { at: number; cancel(): void } | null = null;
  const idle: (() => void)[] = [];

  async function runBatch(batch: Pending[]): Promise<void> {
    if (batch.length === 1) {
      await runAlone(batch[0]!);
      return;
    }
    const results: unknown[] = [];
    try {
      await db.transaction().execute(async (trx) => {
        for (const item of batch) results.push(await item.op(trx));
      });
    } catch (error) {
      // When the database itself is gone, retrying each write alone would only multiply the wait.
      if (isDatabaseUnavailable(error)) {
        for (const item of batch) item.reject(error);
        return;
      }
      for (const item of batch) await runAlone(item);
      return;
    }
    batch.forEach((item, index) => item.resolve(results[index]));
  }

  async function runAlone(item: Pending): Promise<void> {
    try {
      item.resolve(await db.transaction().execute((trx) => item.op(trx)));
    } catch (error) {
      item.reject(error);
    }
  }

  // One worker: whatever is due, and whatever queued up while a batch was committing, becomes the next batch.
  async function work(): Promise<void> {
    wake = null;
    busy = true;
    while (queue.length > 0 && nextDue() <= performance.now()) {
      const batch = queue.splice(0, maxBatch);
      lastBatchAt = performance.now();
      lastBatchSize = batch.length;
      await runBatch(batch);
    }
    busy = false;
    if (queue.length > 0) schedule(nextDue());
    else for (const done of idle.splice(0)) done();
  }

  function nextDue(): number {
    let due = Infinity;
    for (const item of queue) due = Math.min(due, item.due);
    return due;
  }

  /** Starts the worker at `due`, unless it runs or is already set to start by then. */
  function schedule(due: number): void {
    if (busy || (wake && wake.at <= due)) return;
    wake?.cancel();
    const delay = due - performance.now();
    if (delay <= 0) {
      const handle = setImmediate(() => void work());
      wake = { at: due, cancel: () => clearImmediate(handle) };
    } else {
      // Timers count whole milliseconds; one that fired a fraction early would only be set again.
      const handle = setTimeout(() => void work(), Math.ceil(delay));
      wake = { at: due, cancel: () => clearTimeout(handle) };
    }
  }

  /** How long a write arriving now may wait for company (see WriteQueue). */
  function lingerFor(options: WriteOptions | undefined, now: number): number {
    const sinceLast = now - lastBatchAt;
    if (options?.patient) return sinceLast < patientLingerMs ? patientLingerMs : 0;
    return lastBatchSize < LINGER_BELOW && sinceLast < lingerMs ? lingerMs : 0;
  }

  return {
    run<T>(op: WriteOp<T>, options?: WriteOptions): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        const now = performance.now();
        const due = now + lingerFor(options, now);
        queue.push({ op, resolve: resolve as (value: unknown) => void, reject, due });
        schedule(due);
      });
    },
    drain() {
      // Anything queued has the worker set to start (or running), so the queue and the worker say it all.
      if (!busy && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
