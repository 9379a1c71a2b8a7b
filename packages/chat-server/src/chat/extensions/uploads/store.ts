import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { createLocalUploadStore } from './local-store.ts';
import type { ByteRange, UploadStore } from './object-store.ts';

export type { ByteRange } from './object-store.ts';

export type FileVariant = 'original' | 'thumb';

export interface StoredFile {
  /** Sanitized display name (the last URL segment and the download name); never a path on disk. */
  name: string;
  mimeType: string;
  size: number;
  uploadedBy: string;
  cid: string | null;
  width?: number;
  height?: number;
  thumb?: { mimeType: string; size: number };
}

/**
 * Uploads as files: each is addressed by (app id, generated file id, variant) only, so nothing the client sends
 * becomes part of a storage key. Metadata is written last, so a half-written upload is never served.
 */
export interface FileStore {
  readonly objects: UploadStore;
  write(
    appId: string,
    fileId: string,
    variant: FileVariant,
    content: Readable | Buffer,
    contentType: string,
  ): Promise<number>;
  writeMeta(appId: string, fileId: string, meta: StoredFile): Promise<void>;
  meta(appId: string, fileId: string): Promise<StoredFile | undefined>;
  /** The variant's bytes (or a range of them); undefined when the object is gone. */
  read(
    appId: string,
    fileId: string,
    variant: FileVariant,
    range?: ByteRange,
  ): Promise<Readable | undefined>;
  /** Deletes every object of the file now (a refused upload's own parts, the clean-up job). */
  remove(appId: string, fileId: string): Promise<void>;
  /** Makes the file unservable at once; its objects are removed later by the clean-up job (cleanup.ts). */
  retire(appId: string, fileId: string): Promise<void>;
}

const FILE_ID = /^[0-9a-f-]{36}$/;
const APP_ID = /^[A-Za-z0-9_@-][A-Za-z0-9_.@-]{0,127}$/;
const META = 'meta.json';

/** Both ids come from URLs: anything that could leave the upload folder is refused here, once. */
export function isSafeStoreKey(appId: string, fileId: string): boolean {
  return APP_ID.test(appId) && !appId.includes('..') && FILE_ID.test(fileId);
}

/** `<appId>/<fileId>/`: the folder holding `original`, `thumb` and `meta.json`. */
export function fileFolder(appId: string, fileId: string): string {
  if (!isSafeStoreKey(appId, fileId)) throw new Error('unsafe upload key');
  return `${appId}/${fileId}/`;
}

export function createFileStore(objects: UploadStore): FileStore {
  return {
    objects,
    async write(appId, fileId, variant, content, contentType) {
      return (await objects.put(fileFolder(appId, fileId) + variant, content, contentType)).size;
    },
    async writeMeta(appId, fileId, meta) {
      const json = Buffer.from(JSON.stringify(meta));
      await objects.put(fileFolder(appId, fileId) + META, json, 'application/json');
    },
    async meta(appId, fileId) {
      if (!isSafeStoreKey(appId, fileId)) return undefined;
      const found = await objects.get(fileFolder(appId, fileId) + META);
      if (!found) return undefined;
      try {
        return JSON.parse(await text(found.body)) as StoredFile;
      } catch {
        return undefined;
      }
    },
    async read(appId, fileId, variant, range) {
      return (await objects.get(fileFolder(appId, fileId) + variant, range))?.body;
    },
    remove: (appId, fileId) => objects.deletePrefix(fileFolder(appId, fileId)),
    async retire(appId, fileId) {
      const folder = fileFolder(appId, fileId);
      // Without a cheap rename, deleting the metadata hides the file: nothing is served without it.
      if (objects.retirePrefix) await objects.retirePrefix(folder);
      else await objects.delete(folder + META);
    },
  };
}

/** Local-directory store: `<dir>/<appId>/<fileId>/{original,thumb,meta.json}`. */
export function createDiskFileStore(dir: string): FileStore {
  return createFileStore(createLocalUploadStore(dir));
}
