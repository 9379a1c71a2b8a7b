import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { chatError } from '../../errors.ts';
import { requirePermission, type Actor } from '../access.ts';
import { assertChannelId, assertChannelType, type ChannelsService } from '../channels/service.ts';
import type { FileStore, StoredFile } from './store.ts';

export type UploadKind = 'image' | 'file';

export interface UploadInput {
  filename: string;
  mimeType: string;
  content: Readable;
  /** True once the stream was cut at the size limit (the multipart parser stops instead of failing). */
  truncated(): boolean;
}

export interface UploadsService {
  upload(
    actor: Actor,
    channel: { type: string; id: string } | null,
    kind: UploadKind,
    input: UploadInput,
    baseURL: string,
  ): Promise<{ file: string }>;
  remove(actor: Actor, url: string): Promise<void>;
  open(
    appId: string,
    fileId: string,
    name: string,
  ): Promise<{ meta: StoredFile; content: Readable } | undefined>;
}

const FILE_ID = /^[0-9a-f-]{36}$/;

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

export function createUploadsService(store: FileStore, channels: ChannelsService): UploadsService {
  return {
    async upload(actor, channel, kind, input, baseURL) {
      if (!actor.userId && !actor.isServer)
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
      if (kind === 'image' && !input.mimeType.startsWith('image/'))
        throw chatError.input('an image upload must have an image/* content type');
      const fileId = randomUUID();
      const name = safeFileName(input.filename);
      await store.put(
        actor.appId,
        fileId,
        { name, mimeType: input.mimeType, uploadedBy: actor.userId ?? '', cid },
        input.content,
      );
      if (input.truncated()) {
        await store.remove(actor.appId, fileId);
        throw chatError.payloadTooBig('the file is larger than the upload limit');
      }
      return {
        file: `${baseURL}/uploads/${encodeURIComponent(actor.appId)}/${fileId}/${encodeURIComponent(name)}`,
      };
    },

    async remove(actor, url) {
      const match = /\/uploads\/([^/]+)\/([^/]+)\/[^/]+$/.exec(new URL(url, 'http://x').pathname);
      if (!match || decodeURIComponent(match[1]!) !== actor.appId || !FILE_ID.test(match[2]!))
        throw chatError.input('url is not a file of this app');
      const meta = await store.meta(actor.appId, match[2]!);
      if (!meta) throw chatError.notFound('file does not exist');
      if (!actor.isServer && meta.uploadedBy !== actor.userId) {
        const access = meta.cid ? await channels.access(actor, meta.cid) : undefined;
        if (!access?.permissions.has('delete-any-message'))
          throw chatError.notAllowed('only the uploader or a moderator can delete this file');
      }
      await store.remove(actor.appId, match[2]!);
    },

    async open(appId, fileId, name) {
      if (!FILE_ID.test(fileId)) return undefined;
      const meta = await store.meta(appId, fileId);
      if (!meta || meta.name !== name) return undefined;
      return { meta, content: store.read(appId, fileId, name) };
    },
  };
}
