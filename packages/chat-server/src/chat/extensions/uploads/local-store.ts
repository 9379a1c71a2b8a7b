import { createWriteStream } from 'node:fs';
import { mkdir, open, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { assertSafeKey, type ObjectInfo, type UploadStore } from './object-store.ts';

/** Where retired folders wait for the clean-up job; app ids cannot start with a dot, so it never meets an app. */
const RETIRED = '.retired';

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

/** Local-directory store: the object `a/b/c` is the file `<dir>/a/b/c` (the layout uploads always had). */
export function createLocalUploadStore(dir: string): UploadStore {
  const pathOf = (key: string) => {
    assertSafeKey(key);
    return join(dir, key);
  };
  const info = (size: number, mtimeMs: number): ObjectInfo => ({
    size,
    etag: `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`,
    contentType: 'application/octet-stream',
  });
  return {
    kind: 'local',
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, createWriteStream(path));
      const stats = await stat(path);
      return info(stats.size, stats.mtimeMs);
    },
    async get(key, range) {
      let handle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        if (isMissing(error)) return undefined;
        throw error;
      }
      const stats = await handle.stat();
      return { ...info(stats.size, stats.mtimeMs), body: handle.createReadStream(range) };
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async deleteMany(keys) {
      for (const key of keys) await rm(pathOf(key), { force: true });
    },
    async deletePrefix(prefix) {
      const folder = prefix.replace(/\/$/, '');
      await rm(pathOf(folder), { recursive: true, force: true });
      await rm(join(dir, RETIRED, folder), { recursive: true, force: true });
    },
    async retirePrefix(prefix) {
      const folder = prefix.replace(/\/$/, '');
      const target = join(dir, RETIRED, folder);
      await mkdir(dirname(target), { recursive: true });
      await rm(target, { recursive: true, force: true });
      try {
        await rename(pathOf(folder), target);
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
    },
    close: () => undefined,
  };
}
