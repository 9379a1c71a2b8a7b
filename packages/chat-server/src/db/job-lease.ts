import { randomUUID } from 'node:crypto';
import { isoFromMicros } from './clock.ts';
import type { Db } from './schema.ts';

type JobLeasesTables = {
  job_leases: { name: string; owner: string | null; expires_at: string };
};

export interface JobLeaseOptions {
  /** How long a claim holds without renewal: a node that dies is replaced after at most this long. */
  leaseMs: number;
  /** How often the holder renews and runs, and the others check whether the lease lapsed (≤ leaseMs / 3). */
  sweepMs: number;
}

export interface JobLease {
  /** This node's id in the lease row. */
  readonly owner: string;
  /** Takes the lease if it is free or lapsed, renews it if this node holds it; true while this node holds it. */
  hold(): Promise<boolean>;
  /** Hands the lease back (clean shutdown), so another node takes over at its next sweep, not after expiry. */
  release(): Promise<void>;
}

const isoIn = (ms: number) => isoFromMicros((Date.now() + ms) * 1000);

/**
 * A named lease row (migration 0022) that lets exactly one node at a time run a background job, on SQLite and
 * PostgreSQL alike. The conditional update is atomic, so of several nodes trying at once exactly one gets it.
 */
export function createJobLease(db: Db, name: string, leaseMs: number): JobLease {
  const q = db.withTables<JobLeasesTables>();
  const owner = randomUUID();
  return {
    owner,
    async hold() {
      const now = isoIn(0);
      await q
        .insertInto('job_leases')
        .values({ name, owner: null, expires_at: now })
        .onConflict((c) => c.column('name').doNothing())
        .execute();
      const result = await q
        .updateTable('job_leases')
        .set({ owner, expires_at: isoIn(leaseMs) })
        .where('name', '=', name)
        .where((eb) =>
          eb.or([eb('owner', 'is', null), eb('expires_at', '<', now), eb('owner', '=', owner)]),
        )
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    async release() {
      await q
        .updateTable('job_leases')
        .set({ owner: null, expires_at: isoIn(0) })
        .where('name', '=', name)
        .where('owner', '=', owner)
        .execute();
    },
  };
}

export interface LeasedJob {
  start(): void;
  /** Runs a sweep soon on this node (new work was queued here); a node without the lease does nothing. */
  kick(): void;
  /** Lets a run in progress finish and hands the lease back. */
  stop(): Promise<void>;
}

/** The part of the server's logger a leased job writes to. */
export interface JobLog {
  info(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

/**
 * Every `sweepMs` each node tries to hold the lease; the holder then runs `work`. Runs never overlap on one node,
 * and a failed run (database or store unreachable) is logged and simply tried again at the next sweep. Taking and
 * losing the lease are logged, so an operator can see which node runs a job.
 */
export function createLeasedJob(
  name: string,
  lease: JobLease,
  options: JobLeaseOptions,
  work: () => Promise<void>,
  log: JobLog,
): LeasedJob {
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  let running: Promise<void> | undefined;
  let again = false;
  let held = false;

  async function sweep(): Promise<void> {
    try {
      const holds = await lease.hold();
      if (holds !== held)
        log.info({ job: name, owner: lease.owner }, holds ? 'job lease taken' : 'job lease lost');
      held = holds;
      if (holds) await work();
    } catch (error) {
      log.error({ err: error, job: name }, 'background job failed');
    }
  }

  function run(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = sweep().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        run();
      }
    });
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => {
      run();
      schedule();
    }, options.sweepMs);
    timer.unref();
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      run();
      schedule();
    },
    kick: run,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
      held = false;
      await lease
        .release()
        .catch((error: unknown) => log.error({ err: error, job: name }, 'job lease not released'));
    },
  };
}
