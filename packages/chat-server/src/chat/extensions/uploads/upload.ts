import { randomUUID } from 'node:crypto';
import { pipeline, Transform } from 'node:stream';
import type { AppConfig } from '../../../config.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../../core/access/access.ts';
import {
  effectiveSizeLimit,
  firstFailedRule,
  uploadRefusal,
  type UploadConfig,
} from '../../core/app/upload-config.ts';
import { assertChannelId, assertChannelType } from '../../core/channels/service.ts';
import { isDecodableImageType, probeImage, THUMB_MIME } from './image.ts';
import { normalizeMimeType, safeFileName, THUMB_PREFIX } from './names.ts';
import type {
  UploadBody,
  UploadInput,
  UploadKind,
  UploadResult,
  UploadsContext,
} from './service.ts';
import type { StoredFile } from './store.ts';

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

/** One upload on its way to the store: where it goes and under which rules. */
interface Incoming {
  appId: string;
  fileId: string;
  kind: UploadKind;
  config: UploadConfig;
}

/** Streams the file to the store within the size limit, then reads the rest of the body; returns the size. */
async function receive(
  { store, serverMaxBytes }: UploadsContext,
  { appId, fileId, kind, config }: Incoming,
  input: UploadInput,
  body: UploadBody,
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
    size = await store.write(appId, fileId, 'original', limiter, normalizeMimeType(input.mimeType));
  } catch (error) {
    throw exceeded ? uploadRefusal('size_limit', kind) : error;
  }
  if (exceeded || input.truncated()) throw uploadRefusal('size_limit', kind);
  if (size === 0) throw chatError.input('the file is empty');
  await body.finish();
  return size;
}

/** Real type, size and thumbnail of an image; refuses a file declared as a raster image that is none. */
async function describeImage(
  { store }: UploadsContext,
  { appId, fileId, kind }: Incoming,
  meta: StoredFile,
): Promise<void> {
  if (kind !== 'image' && !isDecodableImageType(meta.mimeType)) return;
  const original = await store.read(appId, fileId, 'original');
  if (!original) throw chatError.notFound('the uploaded file is gone');
  const probed = await probeImage(original);
  if (!probed && isDecodableImageType(meta.mimeType))
    throw chatError.input(`the file is not a valid ${meta.mimeType} image`);
  if (!probed) return;
  meta.mimeType = probed.mimeType;
  meta.width = probed.width;
  meta.height = probed.height;
  meta.thumb = {
    mimeType: THUMB_MIME,
    size: await store.write(appId, fileId, 'thumb', probed.thumb, THUMB_MIME),
  };
}

/** The cid the upload belongs to, once the actor may upload there; null for an upload outside any channel. */
async function uploadChannel(
  { channels }: UploadsContext,
  actor: Actor,
  channel: { type: string; id: string } | null,
): Promise<string | null> {
  // Guests get a token without any credential, so letting them store files would hand disk space to anyone.
  if (actor.role === 'anonymous' || actor.role === 'guest' || (!actor.userId && !actor.isServer))
    throw chatError.notAllowed('guests and anonymous users cannot upload');
  if (!channel) return null;
  assertChannelType(channel.type);
  assertChannelId(channel.id);
  const access = await channels.access(actor, `${channel.type}:${channel.id}`);
  if (!access.type.config.uploads)
    throw chatError.featureNotSupported('uploads are disabled for this channel type');
  requirePermission(access.permissions, 'upload-file', 'uploading to this channel');
  return access.channel.cid;
}

/** The stored file's metadata once its name and type pass the app's rules for this kind of upload. */
function checkedMeta(
  actor: Actor,
  cid: string | null,
  input: UploadInput,
  kind: UploadKind,
  config: UploadConfig,
): StoredFile {
  const mimeType = normalizeMimeType(input.mimeType);
  const name = safeFileName(input.filename);
  const failed = firstFailedRule(config, { filename: name, mimeType });
  if (failed) throw uploadRefusal(failed, kind);
  if (kind === 'image' && !mimeType.startsWith('image/'))
    throw chatError.input('an image upload must have an image/* content type');
  return { name, mimeType, size: 0, uploadedBy: actor.userId ?? '', cid };
}

function uploadResult(
  baseURL: string,
  appId: string,
  fileId: string,
  meta: StoredFile,
): UploadResult {
  const folderURL = `${baseURL}/uploads/${encodeURIComponent(appId)}/${fileId}`;
  const result: UploadResult = { file: `${folderURL}/${encodeURIComponent(meta.name)}` };
  if (meta.thumb && meta.width && meta.height) {
    // stream-chat-react reads the original size from ?oh=&ow= to reserve the image box before it loads.
    result.file += `?oh=${meta.height}&ow=${meta.width}`;
    result.thumb_url = `${folderURL}/${THUMB_PREFIX}${encodeURIComponent(meta.name)}`;
    result.original_width = meta.width;
    result.original_height = meta.height;
  }
  return result;
}

/**
 * Nothing of a refused, cut or failed upload stays in the store. When the store cannot delete it now (unreachable),
 * the clean-up job does later; the file was never served, since its metadata is written last.
 */
async function discard(context: UploadsContext, appId: string, fileId: string): Promise<void> {
  try {
    await context.store.remove(appId, fileId);
  } catch {
    // With the database down too there is nowhere to note it; the original error is what the client must see.
    await context.cleanup.enqueue(appId, [fileId]).catch(() => undefined);
  }
}

export async function upload(
  context: UploadsContext,
  app: AppConfig,
  actor: Actor,
  channel: { type: string; id: string } | null,
  kind: UploadKind,
  body: UploadBody,
  baseURL: string,
): Promise<UploadResult> {
  const cid = await uploadChannel(context, actor, channel);
  const configs = await context.appSettings.uploadConfigs(app);
  const config = kind === 'image' ? configs.image : configs.file;

  const input = await body.file();
  const meta = checkedMeta(actor, cid, input, kind, config);
  const incoming: Incoming = { appId: actor.appId, fileId: randomUUID(), kind, config };
  try {
    meta.size = await receive(context, incoming, input, body);
    await describeImage(context, incoming, meta);
    await context.store.writeMeta(actor.appId, incoming.fileId, meta);
  } catch (error) {
    await discard(context, actor.appId, incoming.fileId);
    throw error;
  }
  return uploadResult(baseURL, actor.appId, incoming.fileId, meta);
}
