import { randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import type { AppConfig } from '../../../config.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import type { AppService } from '../../core/app/service.ts';
import {
  assertChannelId,
  assertChannelType,
  type ChannelsService,
} from '../../core/channels/service.ts';
import { isPlainObject } from '../../core/json.ts';
import { isDecodableImageType, probeImage, THUMB_MIME } from './image.ts';
import type { ByteRange, FileStore, FileVariant, StoredFile } from './store.ts';
import {
  effectiveSizeLimit,
  firstFailedRule,
  uploadRefusal,
  type UploadConfig,
} from '../../core/app/upload-config.ts';

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
  content(range?: ByteRange): Readable;
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
}

const THUMB_PREFIX = 'thumb-';

/** The router answers 414 for a path segment over 100 characters (Fastify's maxParamLength), thumbnails included. */
const MAX_NAME_LENGTH = 100 - THUMB_PREFIX.length;
const MAX_KEPT_EXTENSION = 16;

function shortenName(name: string): string {
  if (name.length <= MAX_NAME_LENGTH) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= MAX_KEPT_EXTENSION ? name.slice(dot) : '';
  return name.slice(0, MAX_NAME_LENGTH - extension.length).replace(/[.-]+$/, '') + extension;
}

/**
 * A name safe on every filesystem and in a URL path, keeping the extension. Upload rules are checked on this name,
 * never on the raw one: full-width letters, accents and trailing dots or spaces all fold into what is served.
 */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/đ/g, 'd')
    .replace(/Đ/g, 'D')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+|[.-]+$/g, '');
  return shortenName(cleaned) || 'file';
}

/** RFC 9110 token characters: anything else could not be sent back as a Content-Type header. */
const MIME_TYPE = /^[a-z0-9!#$%&'*+.^_`|~-]+\/[a-z0-9!#$%&'*+.^_`|~-]+$/;

/** The declared type without parameters or case, as rules compare it and as it is served. */
export function normalizeMimeType(declared: string): string {
  const essence = (declared.split(';')[0] ?? '').trim().toLowerCase();
  if (!essence) return 'application/octet-stream';
  if (!MIME_TYPE.test(essence)) throw chatError.input('the file has an invalid content type');
  return essence;
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

export interface UploadsContext {
  store: FileStore;
  channels: ChannelsService;
  appSettings: AppService;
  /** The server's own cap on a file's size; an app's upload settings may only lower it. */
  serverMaxBytes: number;
}

export function createUploadsService({
  store,
  channels,
  appSettings,
  serverMaxBytes,
}: UploadsContext): UploadsService {
  /** Streams the file to the store within the size limit, then reads the rest of the body; returns the size. */
  async function receive(
    appId: string,
    fileId: string,
    input: UploadInput,
    body: UploadBody,
    kind: UploadKind,
    config: UploadConfig,
  ): Promise<number> {
    let exceeded = false;
    const limiter = byteLimit(effectiveSizeLimit(config, serverMaxBytes), () => {
      exceeded = true;
      return uploadRefusal('size_limit', kind);
    });
    // pipeline (not pipe) carries a failure of either side to the other: a body cut off or timed out ends the file
    // write, and a failed write stops reading the body.
    pipeline(input.content, limiter, () => undefined);
    let size: number;
    try {
      size = await store.write(appId, fileId, 'original', limiter);
    } catch (error) {
      throw exceeded ? uploadRefusal('size_limit', kind) : error;
    }
    if (exceeded || input.truncated()) throw uploadRefusal('size_limit', kind);
    if (size === 0) throw chatError.input('the file is empty');
    await body.finish();
    return size;
  }

  /** Real type, size and thumbnail of an image; refuses a file declared as a raster image that is none. */
  async function describeImage(appId: string, fileId: string, meta: StoredFile, kind: UploadKind) {
    if (kind !== 'image' && !isDecodableImageType(meta.mimeType)) return;
    const probed = await probeImage(store.read(appId, fileId, 'original'));
    if (!probed && isDecodableImageType(meta.mimeType))
      throw chatError.input(`the file is not a valid ${meta.mimeType} image`);
    if (!probed) return;
    meta.mimeType = probed.mimeType;
    meta.width = probed.width;
    meta.height = probed.height;
    meta.thumb = {
      mimeType: THUMB_MIME,
      size: await store.write(appId, fileId, 'thumb', probed.thumb),
    };
  }

  return {
    async upload(app, actor, channel, kind, body, baseURL) {
      // Guests get a token without any credential, so letting them store files would hand disk space to anyone.
      if (
        actor.role === 'anonymous' ||
        actor.role === 'guest' ||
        (!actor.userId && !actor.isServer)
      )
        throw chatError.notAllowed('guests and anonymous users cannot upload');
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

      const input = await body.file();
      const mimeType = normalizeMimeType(input.mimeType);
      const name = safeFileName(input.filename);
      const failed = firstFailedRule(config, { filename: name, mimeType });
      if (failed) throw uploadRefusal(failed, kind);
      if (kind === 'image' && !mimeType.startsWith('image/'))
        throw chatError.input('an image upload must have an image/* content type');

      const fileId = randomUUID();
      const meta: StoredFile = { name, mimeType, size: 0, uploadedBy: actor.userId ?? '', cid };
      try {
        meta.size = await receive(actor.appId, fileId, input, body, kind, config);
        await describeImage(actor.appId, fileId, meta, kind);
        await store.writeMeta(actor.appId, fileId, meta);
      } catch (error) {
        // Nothing of a refused, cut or failed upload stays on disk.
        await store.remove(actor.appId, fileId);
        throw error;
      }

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
    },
  };
}
