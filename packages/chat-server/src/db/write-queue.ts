import type { Transaction } from 'kysely';
import type { Database, Db } from './schema.ts';
import { isDatabaseUnavailable } from './unavailable.ts';

export type WriteOp<T> = (trx: Transaction<Database>) => Promise<T>;

interface Pending {
  op: WriteOp<unknown>;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * Group commit: writes enqueued in the same event-loop turn run in one transaction, and each caller's promise
 * settles only after that transaction committed (so an acknowledged send is durable). If the batch fails, every
 * operation is retried alone, so one bad write (a duplicate id) fails only its own caller.
 *
 * Under a steady stream of small batches (the previous one began less than `lingerMs` ago and held fewer than
 * LINGER_BELOW writes) a batch waits `lingerMs` before it starts, so the writes of the next few requests join it:
 * in a reconnect storm each handshake arrives in its own turn, and one commit per handshake was a fifth of a
 * connect's CPU. An occasional write starts at once, and so does a busy stream whose batches are already large
 * (concurrent sends), which would only wait longer for nothing.
 */
export interface WriteQueue {
  run<T>(op: WriteOp<T>): Promise<T>;
  /** Resolves when everything enqueued so far has settled. */
  drain(): Promise<void>;
}

const LINGER_BELOW = 8;

export function createWriteQueue(db: Db, maxBatch: number, lingerMs = 0): WriteQueue {
  const queue: Pending[] = [];
  let lastBatchAt = -Infinity;
  let lastBatchSize = 0;
  let scheduled = false;
  let busy = false;
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

  // One worker: whatever queued up while a batch was committing becomes the next batch.
  async function work(): Promise<void> {
    scheduled = false;
    busy = true;
    while (queue.length > 0) {
      const batch = queue.splice(0, maxBatch);
      lastBatchAt = performance.now();
      lastBatchSize = batch.length;
      await runBatch(batch);
    }
    busy = false;
    for (const wake of idle.splice(0)) wake();
  }

  return {
    run<T>(op: WriteOp<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ op, resolve: resolve as (value: unknown) => void, reject });
        if (!scheduled && !busy) {
          scheduled = true;
          if (
            lingerMs > 0 &&
            lastBatchSize < LINGER_BELOW &&
            performance.now() - lastBatchAt < lingerMs
          )
            setTimeout(() => void work(), lingerMs);
          else setImmediate(() => void work());
        }
      });
    },
    drain() {
      if (!scheduled && !busy && queue.length === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
  };
}
