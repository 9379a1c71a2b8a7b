import type { Readable } from 'node:stream';

/** Inclusive byte range, already validated against the object's size. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectInfo {
  /** Bytes of the whole object (not of the range asked for). */
  size: number;
  /** The store's own entity tag, quoted. */
  etag: string;
  contentType: string;
}

export interface StoredObject extends ObjectInfo {
  /** The bytes asked for, streamed from the store: never the whole object in memory. */
  body: Readable;
}

/**
 * Where upload bytes live: a local directory (embedded default) or an S3-compatible bucket (uploads.store: 's3').
 * Keys are `/`-separated and built by the uploads extension from generated ids only (store.ts), never from what a
 * client sent.
 */
export interface UploadStore {
  readonly kind: 'local' | 's3';
  /** Stores the object whole or not at all: a failed put leaves nothing readable under `key`. */
  put(key: string, body: Readable | Buffer, contentType: string): Promise<ObjectInfo>;
  /** The object (or the range of it), or undefined when there is none. */
  get(key: string, range?: ByteRange): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  deleteMany(keys: string[]): Promise<void>;
  /** Deletes every object whose key starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /**
   * Makes every object under `prefix` unreadable at once when the store can do that cheaply (a directory rename);
   * `deletePrefix` later removes them for good. Stores without it are hidden by deleting one key (store.ts).
   */
  retirePrefix?(prefix: string): Promise<void>;
  close(): void;
}

const KEY = /^[A-Za-z0-9_.@-]+(\/[A-Za-z0-9_.@-]+)*\/?$/;

/** Keys stay inside the store: plain segments only, none of them `.` or `..`. */
export function assertSafeKey(key: string): void {
  if (!KEY.test(key) || key.split('/').some((segment) => segment === '.' || segment === '..'))
    throw new Error(`unsafe upload store key: ${JSON.stringify(key)}`);
}
