import { randomUUID } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import type { AppConfig } from '../../config.ts';
import { chatError } from '../../errors.ts';
import { requirePermission, type Actor } from '../access.ts';
import type { AppService } from '../app/service.ts';
import { assertChannelId, assertChannelType, type ChannelsService } from '../channels/service.ts';
import { isPlainObject } from '../json.ts';
import { isDecodableImageType, probeImage, THUMB_MIME } from './image.ts';
import type { ByteRange, FileStore, FileVariant, StoredFile } from './store.ts';
import { effectiveSizeLimit, firstFailedRule, uploadRefusal } from './upload-config.ts';

export type UploadKind = 'image' | 'file';

export interface UploadInput {
  filename: string;
  mimeType: string;
  content: Readable;
  /** True once the stream was cut at the server-wide limit (the multipart parser stops instead of failing). */
  truncated(): boolean;
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
  mimeType: string;
  size: number;
  content(range?: ByteRange): Readable;
}

export interface UploadsService {
  upload(
    app: AppConfig,
    actor: Actor,
    channel: { type: string; id: string } | null,
    kind: UploadKind,
    input: UploadInput,
    baseURL: string,
  ): Promise<UploadResult>;
  remove(actor: Actor, url: string): Promise<void>;
  /** Deletes the uploads a hard-deleted message pointed to, when its author uploaded them. */
  removeAttachmentFiles(appId: string, authorId: string, attachments: unknown[]): Promise<void>;
  open(appId: string, fileId: string, name: string): Promise<OpenedFile | undefined>;
}

const THUMB_PREFIX = 'thumb-';

/** A name safe on every filesystem and in a URL path, keeping the extension. */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(-120);
  return cleaned || 'file';
}

/** `…/uploads/<app>/<file id>/<name>` of this server → the ids, or undefined for any other URL. */
export function parseUploadURL(url: string): { appId: string; fileId: string } | undefined {
  let pathname: string;
  try {
    pathname = new URL(url, 'http://x').pathname;
  } catch {
    return undefined;
  }
  const match = /\/uploads\/([^/]+)\/([^/]+)\/[^/]+$/.exec(pathname);
  if (!match) return undefined;
  try {
    return { appId: decodeURIComponent(match[1]!), fileId: match[2]! };
  } catch {
    return undefined;
  }
}

/** Counts bytes while they stream to the store and fails as soon as the limit is passed. */
function byteLimit(limit: number, onExceeded: () => Error): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(onExceeded());
      else callback(null, chunk);
    },
  });
}

export function createUploadsService(
  store: FileStore,
  channels: ChannelsService,
  appSettings: AppService,
  serverMaxBytes: number,
): UploadsService {
  return {
    async upload(app, actor, channel, kind, input, baseURL) {
      if (actor.role === 'anonymous' || (!actor.userId && !actor.isServer))
        throw chatError.notAllowed('anonymous users cannot upload');
      let cid: string | null = null;
      if (channel) {
        assertChannelType(channel.type);
        assertChannelId(channel.id);
        const access = await channels.access(actor, `${channel.type}:${channel.id}`);
        if (!access.type.config.uploads)
          throw chatError.featureNotSupported('uploads are disabled for this channel type');
        requirePermission(access.permissions, 'upload-file', 'uploading to this channel');
        cid = access.channel.cid;
      }
      const configs = await appSettings.uploadConfigs(app);
      const config = kind === 'image' ? configs.image : configs.file;
      const mimeType = (input.mimeType || 'application/octet-stream').toLowerCase();
      const failed = firstFailedRule(config, { filename: input.filename, mimeType });
      if (failed) throw uploadRefusal(failed, kind);
      if (kind === 'image' && !mimeType.startsWith('image/'))
        throw chatError.input('an image upload must have an image/* content type');

      const fileId = randomUUID();
      const name = safeFileName(input.filename);
      const limit = effectiveSizeLimit(config, serverMaxBytes);
      let exceeded = false;
      const limiter = byteLimit(limit, () => {
        exceeded = true;
        return uploadRefusal('size_limit', kind);
      });
      // Bytes may flow before the store attaches its own handlers; the outcome is read from `exceeded` below.
      limiter.on('error', () => undefined);
      let size: number;
      try {
        size = await store.write(actor.appId, fileId, 'original', input.content.pipe(limiter));
        if (input.truncated()) exceeded = true;
        if (exceeded) throw uploadRefusal('size_limit', kind);
        if (size === 0) throw chatError.input('the file is empty');
      } catch (error) {
        input.content.resume();
        await store.remove(actor.appId, fileId);
        throw exceeded ? uploadRefusal('size_limit', kind) : error;
      }

      const meta: StoredFile = { name, mimeType, size, uploadedBy: actor.userId ?? '', cid };
      if (kind === 'image' || isDecodableImageType(mimeType)) {
        const probed = await probeImage(store.read(actor.appId, fileId, 'original'));
        if (!probed && isDecodableImageType(mimeType)) {
          await store.remove(actor.appId, fileId);
          throw chatError.input(`the file is not a valid ${mimeType} image`);
        }
        if (probed) {
          meta.mimeType = probed.mimeType;
          meta.width = probed.width;
          meta.height = probed.height;
          meta.thumb = {
            mimeType: THUMB_MIME,
            size: await store.write(actor.appId, fileId, 'thumb', probed.thumb),
          };
        }
      }
      await store.writeMeta(actor.appId, fileId, meta);

      const folderURL = `${baseURL}/uploads/${encodeURIComponent(actor.appId)}/${fileId}`;
      const result: UploadResult = { file: `${folderURL}/${encodeURIComponent(name)}` };
      if (meta.thumb && meta.width && meta.height) {
        // stream-chat-react reads the original size from ?oh=&ow= to reserve the image box before it loads.
        result.file += `?oh=${meta.height}&ow=${meta.width}`;
        result.thumb_url = `${folderURL}/${THUMB_PREFIX}${encodeURIComponent(name)}`;
        result.original_width = meta.width;
        result.original_height = meta.height;
      }
      return result;
    },

    async remove(actor, url) {
      const ids = parseUploadURL(url);
      if (!ids || ids.appId !== actor.appId) throw chatError.input('url is not a file of this app');
      const meta = await store.meta(actor.appId, ids.fileId);
      if (!meta) throw chatError.notFound('file does not exist');
      if (!actor.isServer && meta.uploadedBy !== actor.userId) {
        const access = meta.cid ? await channels.access(actor, meta.cid) : undefined;
        if (!access?.permissions.has('delete-any-message'))
          throw chatError.notAllowed('only the uploader or a moderator can delete this file');
      }
      await store.remove(actor.appId, ids.fileId);
    },

    async removeAttachmentFiles(appId, authorId, attachments) {
      const fileIds = new Set<string>();
      for (const attachment of attachments) {
        if (!isPlainObject(attachment)) continue;
        for (const key of ['image_url', 'asset_url', 'thumb_url']) {
          const value = attachment[key];
          const ids = typeof value === 'string' ? parseUploadURL(value) : undefined;
          if (ids && ids.appId === appId) fileIds.add(ids.fileId);
        }
      }
      for (const fileId of fileIds) {
        const meta = await store.meta(appId, fileId);
        // A message may link someone else's upload; only the author's own files go with it.
        if (meta && meta.uploadedBy === authorId) await store.remove(appId, fileId);
      }
    },

    async open(appId, fileId, name) {
      const meta = await store.meta(appId, fileId);
      if (!meta) return undefined;
      if (name === meta.name)
        return {
          meta,
          variant: 'original',
          mimeType: meta.mimeType,
          size: meta.size,
          content: (range) => store.read(appId, fileId, 'original', range),
        };
      if (meta.thumb && name === `${THUMB_PREFIX}${meta.name}`)
        return {
          meta,
          variant: 'thumb',
          mimeType: meta.thumb.mimeType,
          size: meta.thumb.size,
          content: (range) => store.read(appId, fileId, 'thumb', range),
        };
      return undefined;
    },
  };
}
