import type { Logger } from '../../core/deps.ts';
import type { ReminderRow } from './repo.ts';

/** setTimeout's ceiling (~24.8 days); a later reminder is re-checked when this timer fires. */
const MAX_DELAY_MS = 2_147_483_647;
const BATCH = 500;
const RETRY_MS = 5000;

export interface ReminderSchedulerDeps {
  /** The earliest remind_at not yet announced. */
  nextDue(): Promise<string | undefined>;
  /** Claims the reminders due at `now` (marks them announced) and returns those this node claimed. */
  claimDue(now: string, limit: number): Promise<ReminderRow[]>;
  announce(rows: ReminderRow[]): Promise<void>;
  now(): string;
  log: Logger;
  /** Delay before a failed run (database unreachable) is tried again; default RETRY_MS. */
  retryMs?: number;
}

export interface ReminderScheduler {
  /** Re-reads the next due reminder from the database and arms the one timer for it. */
  reschedule(): void;
  /** Resolves once pending work is done; no timer is armed afterwards. */
  stop(): Promise<void>;
}

/**
 * One timer for the whole server, armed for the earliest unannounced reminder. Reminders live in the database, so a
 * restart re-arms it and whatever came due while the server was down is announced at once.
 */
export function createReminderScheduler(deps: ReminderSchedulerDeps): ReminderScheduler {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // Runs are serialised: a reschedule during a run waits for it.
  let chain: Promise<void> = Promise.resolve();

  function enqueue(work: () => Promise<void>): void {
    chain = chain.then(work).catch((error: unknown) => {
      deps.log.error({ err: error }, 'reminder scheduler failed');
      retryLater();
    });
  }

  // A failed run leaves no timer armed: without a retry, reminders would stop after a database restart.
  function retryLater(): void {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => enqueue(arm), deps.retryMs ?? RETRY_MS);
    timer.unref();
  }

  async function arm(): Promise<void> {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    const next = await deps.nextDue();
    if (stopped || next === undefined) return;
    const delay = Math.min(Math.max(0, Date.parse(next) - Date.now()), MAX_DELAY_MS);
    timer = setTimeout(() => enqueue(fire), delay);
    timer.unref();
  }

  async function fire(): Promise<void> {
    timer = undefined;
    if (stopped) return;
    for (;;) {
      const rows = await deps.claimDue(deps.now(), BATCH);
      if (rows.length > 0) await deps.announce(rows);
      if (rows.length < BATCH || stopped) break;
    }
    await arm();
  }

  return {
    reschedule: () => enqueue(arm),
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await chain;
    },
  };
}
