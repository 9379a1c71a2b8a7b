import { isoFromMicros } from '../../../db/clock.ts';
import { createJobLease, createLeasedJob, type JobLeaseOptions } from '../../../db/job-lease.ts';
import type { Db } from '../../../db/schema.ts';
import type { WriteQueue } from '../../../db/write-queue.ts';
import type { Logger } from '../../core/deps.ts';
import type { FileStore } from './store.ts';

type UploadDeletionsTables = {
  upload_deletions: {
    app_id: string;
    file_id: string;
    attempts: number;
    not_before: string;
    created_at: string;
  };
};

/** Deletions taken per round; the job keeps going while rounds come back full. */
const BATCH = 100;
/** A deletion the store refused is tried again after 2^attempts seconds, at most this long. */
const MAX_BACKOFF_MS = 10 * 60 * 1000;

export interface UploadCleanup {
  /** Queues the files' objects for deletion; the clean-up job removes them from the store. */
  enqueue(appId: string, fileIds: string[]): Promise<void>;
  start(): void;
  stop(): Promise<void>;
}

export interface UploadCleanupDeps {
  db: Db;
  writes: WriteQueue;
  store: FileStore;
  jobs: JobLeaseOptions;
  log: Logger;
}

const isoIn = (ms: number) => isoFromMicros((Date.now() + ms) * 1000);

/**
 * The file clean-up job: hard deletes only hide a file (store.ts `retire`) and queue it here, so a request never
 * waits on the store; the one node holding the `upload-cleanup` lease (db/job-lease.ts) deletes the objects. A
 * store that cannot be reached keeps the row, tried again with backoff: nothing is forgotten.
 */
export function createUploadCleanup(deps: UploadCleanupDeps): UploadCleanup {
  const q = deps.db.withTables<UploadDeletionsTables>();

  async function purgeOne(row: { app_id: string; file_id: string; attempts: number }) {
    try {
      await deps.store.remove(row.app_id, row.file_id);
      await q
        .deleteFrom('upload_deletions')
        .where('app_id', '=', row.app_id)
        .where('file_id', '=', row.file_id)
        .execute();
    } catch (error) {
      deps.log.warn(
        { err: error, appId: row.app_id, fileId: row.file_id },
        'upload clean-up failed',
      );
      const attempts = row.attempts + 1;
      await q
        .updateTable('upload_deletions')
        .set({ attempts, not_before: isoIn(Math.min(1000 * 2 ** attempts, MAX_BACKOFF_MS)) })
        .where('app_id', '=', row.app_id)
        .where('file_id', '=', row.file_id)
        .execute();
    }
  }

  async function work(): Promise<void> {
    for (;;) {
      const rows = await q
        .selectFrom('upload_deletions')
        .select(['app_id', 'file_id', 'attempts'])
        .where('not_before', '<=', isoIn(0))
        .orderBy('not_before')
        .limit(BATCH)
        .execute();
      for (const row of rows) await purgeOne(row);
      if (rows.length < BATCH) return;
    }
  }

  const job = createLeasedJob(
    'upload-cleanup',
    createJobLease(deps.db, 'upload-cleanup', deps.jobs.leaseMs),
    deps.jobs,
    work,
    deps.log,
  );

  return {
    async enqueue(appId, fileIds) {
      if (fileIds.length === 0) return;
      const now = isoIn(0);
      await deps.writes.run((trx) =>
        trx
          .withTables<UploadDeletionsTables>()
          .insertInto('upload_deletions')
          .values(
            fileIds.map((file_id) => ({
              app_id: appId,
              file_id,
              attempts: 0,
              not_before: now,
              created_at: now,
            })),
          )
          .onConflict((c) => c.columns(['app_id', 'file_id']).doNothing())
          .execute(),
      );
      job.kick();
    },
    start: () => job.start(),
    stop: () => job.stop(),
  };
}
