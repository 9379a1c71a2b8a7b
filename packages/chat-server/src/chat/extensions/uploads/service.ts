import type { Readable } from 'node:stream';
import type { AppConfig } from '../../../config.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { AppService } from '../../core/app/service.ts';
import type { ChannelsService } from '../../core/channels/service.ts';
import { isPlainObject } from '../../core/json.ts';
import type { UploadCleanup } from './cleanup.ts';
import { parseUploadURL, THUMB_PREFIX } from './names.ts';
import type { ByteRange, FileStore, FileVariant, StoredFile } from './store.ts';
import { upload } from './upload.ts';

// Other modules import these from here; their home is names.ts.
export { normalizeMimeType, parseUploadURL, safeFileName } from './names.ts';

export type UploadKind = 'image' | 'file';

export interface UploadInput {
  filename: string;
  mimeType: string;
  content: Readable;
  /** True once the stream was cut at the server-wide limit (the multipart parser stops instead of failing). */
  truncated(): boolean;
}

/**
 * The multipart body of an upload request. It is read only when asked, so a caller who may not upload is refused
 * before any byte of it is parsed or stored.
 */
export interface UploadBody {
  /** Waits for the part named "file"; fails with code 4 when the body has none or is not well-formed multipart. */
  file(): Promise<UploadInput>;
  /** Reads the rest of the body; fails when it is malformed, carries another file, or stalls. */
  finish(): Promise<void>;
}

export interface UploadResult {
  file: string;
  thumb_url?: string;
  original_width?: number;
  original_height?: number;
}

export interface OpenedFile {
  meta: StoredFile;
  variant: FileVariant;
  /** Names these exact bytes: a file id is never reused and its content never changes. */
  etag: string;
  mimeType: string;
  size: number;
  /** The bytes from the store; undefined when the object went away after its metadata was read. */
  content(range?: ByteRange): Promise<Readable | undefined>;
}

export interface UploadsService {
  upload(
    app: AppConfig,
    actor: Actor,
    channel: { type: string; id: string } | null,
    kind: UploadKind,
    body: UploadBody,
    baseURL: string,
  ): Promise<UploadResult>;
  remove(actor: Actor, url: string): Promise<void>;
  /** Deletes the uploads a hard-deleted message pointed to, when its author uploaded them. */
  removeAttachmentFiles(appId: string, authorId: string, attachments: unknown[]): Promise<void>;
  open(appId: string, fileId: string, name: string): Promise<OpenedFile | undefined>;
  /** Starts the file clean-up job (cleanup.ts). */
  start(): void;
  stop(): Promise<void>;
}

export interface UploadsContext {
  store: FileStore;
  cleanup: UploadCleanup;
  channels: ChannelsService;
  appSettings: AppService;
  /** The server's own cap on a file's size; an app's upload settings may only lower it. */
  serverMaxBytes: number;
}

/** Hides the file at once and leaves the deletion of its objects to the clean-up job. */
async function retire({ store, cleanup }: UploadsContext, appId: string, fileIds: string[]) {
  await cleanup.enqueue(appId, fileIds);
  for (const fileId of fileIds) await store.retire(appId, fileId);
}

async function removeUpload(context: UploadsContext, actor: Actor, url: string) {
  const { store, channels } = context;
  const ids = parseUploadURL(url);
  if (!ids || ids.appId !== actor.appId) throw chatError.input('url is not a file of this app');
  const meta = await store.meta(actor.appId, ids.fileId);
  if (!meta) throw chatError.notFound('file does not exist');
  if (!actor.isServer && meta.uploadedBy !== actor.userId) {
    const access = meta.cid ? await channels.access(actor, meta.cid) : undefined;
    if (!access?.permissions.has('delete-any-message'))
      throw chatError.notAllowed('only the uploader or a moderator can delete this file');
  }
  await retire(context, actor.appId, [ids.fileId]);
}

async function removeAttachmentFiles(
  context: UploadsContext,
  appId: string,
  authorId: string,
  attachments: unknown[],
): Promise<void> {
  const fileIds = new Set<string>();
  for (const attachment of attachments) {
    if (!isPlainObject(attachment)) continue;
    for (const key of ['image_url', 'asset_url', 'thumb_url']) {
      const value = attachment[key];
      const ids = typeof value === 'string' ? parseUploadURL(value) : undefined;
      if (ids && ids.appId === appId) fileIds.add(ids.fileId);
    }
  }
  const own: string[] = [];
  for (const fileId of fileIds) {
    const meta = await context.store.meta(appId, fileId);
    // A message may link someone else's upload; only the author's own files go with it.
    if (meta && meta.uploadedBy === authorId) own.push(fileId);
  }
  await retire(context, appId, own);
}

async function openFile(
  { store }: UploadsContext,
  appId: string,
  fileId: string,
  name: string,
): Promise<OpenedFile | undefined> {
  const meta = await store.meta(appId, fileId);
  if (!meta) return undefined;
  if (name === meta.name)
    return {
      meta,
      variant: 'original',
      etag: `"${fileId}"`,
      mimeType: meta.mimeType,
      size: meta.size,
      content: (range) => store.read(appId, fileId, 'original', range),
    };
  if (meta.thumb && name === `${THUMB_PREFIX}${meta.name}`)
    return {
      meta,
      variant: 'thumb',
      etag: `"${fileId}-thumb"`,
      mimeType: meta.thumb.mimeType,
      size: meta.thumb.size,
      content: (range) => store.read(appId, fileId, 'thumb', range),
    };
  return undefined;
}

export function createUploadsService(context: UploadsContext): UploadsService {
  return {
    upload: (...args) => upload(context, ...args),
    remove: (actor, url) => removeUpload(context, actor, url),
    removeAttachmentFiles: (...args) => removeAttachmentFiles(context, ...args),
    open: (...args) => openFile(context, ...args),
    start: () => context.cleanup.start(),
    async stop() {
      await context.cleanup.stop();
      context.store.objects.close();
    },
  };
}
