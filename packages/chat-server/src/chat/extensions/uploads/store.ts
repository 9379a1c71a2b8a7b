import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

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

/** Inclusive byte range, already validated against the file size. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * Where uploads live. Files are addressed by (app id, generated file id, variant) only: nothing the client sends
 * becomes part of a storage path. Metadata is written last, so a half-written upload is never served.
 */
export interface FileStore {
  write(
    appId: string,
    fileId: string,
    variant: FileVariant,
    content: Readable | Buffer,
  ): Promise<number>;
  writeMeta(appId: string, fileId: string, meta: StoredFile): Promise<void>;
  meta(appId: string, fileId: string): Promise<StoredFile | undefined>;
  read(appId: string, fileId: string, variant: FileVariant, range?: ByteRange): Readable;
  remove(appId: string, fileId: string): Promise<void>;
}

const FILE_ID = /^[0-9a-f-]{36}$/;
const APP_ID = /^[A-Za-z0-9_@-][A-Za-z0-9_.@-]{0,127}$/;

/** Both ids come from URLs: anything that could leave the upload directory is refused here, once. */
export function isSafeStoreKey(appId: string, fileId: string): boolean {
  return APP_ID.test(appId) && !appId.includes('..') && FILE_ID.test(fileId);
}

/** Local-directory store: `<dir>/<appId>/<fileId>/{original,thumb,meta.json}`. In cluster mode `dir` is a shared volume. */
export function createDiskFileStore(dir: string): FileStore {
  const folder = (appId: string, fileId: string) => {
    if (!isSafeStoreKey(appId, fileId)) throw new Error('unsafe upload key');
    return join(dir, appId, fileId);
  };
  return {
    async write(appId, fileId, variant, content) {
      const target = folder(appId, fileId);
      await mkdir(target, { recursive: true });
      const path = join(target, variant);
      await pipeline(
        Buffer.isBuffer(content) ? Readable.from([content]) : content,
        createWriteStream(path),
      );
      return (await stat(path)).size;
    },
    async writeMeta(appId, fileId, meta) {
      await writeFile(join(folder(appId, fileId), 'meta.json'), JSON.stringify(meta));
    },
    async meta(appId, fileId) {
      if (!isSafeStoreKey(appId, fileId)) return undefined;
      try {
        return JSON.parse(
          await readFile(join(folder(appId, fileId), 'meta.json'), 'utf8'),
        ) as StoredFile;
      } catch {
        return undefined;
      }
    },
    read: (appId, fileId, variant, range) =>
      createReadStream(join(folder(appId, fileId), variant), range),
    async remove(appId, fileId) {
      await rm(folder(appId, fileId), { recursive: true, force: true });
    },
  };
}
