import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface StoredFile {
  name: string;
  mimeType: string;
  size: number;
  uploadedBy: string;
  cid: string | null;
}

/**
 * Where uploads live. The disk store keeps `<dir>/<appId>/<fileId>/<name>` plus a small JSON sidecar; in cluster
 * mode the directory must be a volume every node shares.
 */
export interface FileStore {
  put(
    appId: string,
    fileId: string,
    meta: Omit<StoredFile, 'size'>,
    content: Readable,
  ): Promise<StoredFile>;
  meta(appId: string, fileId: string): Promise<StoredFile | undefined>;
  read(appId: string, fileId: string, name: string): Readable;
  remove(appId: string, fileId: string): Promise<void>;
}

export function createDiskFileStore(dir: string): FileStore {
  const folder = (appId: string, fileId: string) => join(dir, appId, fileId);
  return {
    async put(appId, fileId, meta, content) {
      const target = folder(appId, fileId);
      await mkdir(target, { recursive: true });
      try {
        await pipeline(content, createWriteStream(join(target, meta.name)));
      } catch (error) {
        await rm(target, { recursive: true, force: true });
        throw error;
      }
      const { size } = await stat(join(target, meta.name));
      const stored: StoredFile = { ...meta, size };
      await writeFile(join(target, 'meta.json'), JSON.stringify(stored));
      return stored;
    },
    async meta(appId, fileId) {
      try {
        return JSON.parse(
          await readFile(join(folder(appId, fileId), 'meta.json'), 'utf8'),
        ) as StoredFile;
      } catch {
        return undefined;
      }
    },
    read: (appId, fileId, name) => createReadStream(join(folder(appId, fileId), name)),
    async remove(appId, fileId) {
      await rm(folder(appId, fileId), { recursive: true, force: true });
    },
  };
}
