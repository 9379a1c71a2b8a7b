import type { ChatDeps } from '../../core/deps.ts';
import { createUploadCleanup, type UploadCleanup } from './cleanup.ts';
import { createLocalUploadStore } from './local-store.ts';
import type { UploadStore } from './object-store.ts';
import { createS3UploadStore } from './s3-store.ts';
import { createFileStore, type FileStore } from './store.ts';

/** The configured object store (uploads.store, docs/config.md); config.ts has already checked the s3 section. */
export function createConfiguredUploadStore(uploads: ChatDeps['config']['uploads']): UploadStore {
  if (uploads.store === 's3' && uploads.s3) return createS3UploadStore(uploads.s3);
  return createLocalUploadStore(uploads.dir);
}

/** The file store and its clean-up job, as the uploads service takes them. */
export function createUploadStorage(deps: ChatDeps): { store: FileStore; cleanup: UploadCleanup } {
  const store = createFileStore(createConfiguredUploadStore(deps.config.uploads));
  const cleanup = createUploadCleanup({
    db: deps.db,
    writes: deps.writes,
    store,
    jobs: deps.config.jobs,
    log: deps.log,
  });
  return { store, cleanup };
}
