import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { ChatError } from '../../../errors.ts';
import { assertSafeKey, type UploadStore } from './object-store.ts';

export interface S3StoreConfig {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
  /** Prepended to every key, so several deployments can share one bucket. */
  prefix: string;
  /** Longest wait for a connection to the store, then for its answer. */
  connectTimeoutMs: number;
  requestTimeoutMs: number;
}

/** S3 caps DeleteObjects at 1000 keys. */
const DELETE_BATCH = 1000;

/** Unreachable, timed out or refusing (5xx): the client gets a clean -1/503, never a 500 with internals. */
function storeUnavailable(error: unknown): ChatError {
  const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const detail = status ? `HTTP ${status}` : ((error as Error).name ?? 'network error');
  return new ChatError(
    'ServiceUnavailableError',
    `The file store cannot be reached (${detail}); try again shortly`,
  );
}

function isNotFound(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NoSuchKey' || name === 'NotFound' || $metadata?.httpStatusCode === 404;
}

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ChatError) throw error;
    throw storeUnavailable(error);
  }
}

/**
 * A stream of unknown length is written to a temporary file first: S3's PutObject needs the length up front, and a
 * single PutObject is all-or-nothing, so a cut or refused upload never leaves a partial object in the bucket.
 */
async function spooled<T>(
  body: Readable,
  use: (file: string, size: number) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'chat-upload-spool-'));
  try {
    const file = join(dir, 'part');
    await pipeline(body, createWriteStream(file));
    return await use(file, (await stat(file)).size);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function createS3UploadStore(config: S3StoreConfig): UploadStore {
  const client = new S3Client({
    region: config.region,
    endpoint: config.endpoint,
    forcePathStyle: config.forcePathStyle,
    ...(config.accessKeyId && config.secretAccessKey
      ? {
          credentials: {
            accessKeyId: config.accessKeyId,
            secretAccessKey: config.secretAccessKey,
          },
        }
      : {}),
    // Checksums only where S3 requires them: S3-compatible servers (MinIO, Ceph, R2, s3rver) differ in the newer
    // flexible-checksum headers, and the ETag check on read still catches a corrupted object.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    requestHandler: {
      connectionTimeout: config.connectTimeoutMs,
      requestTimeout: config.requestTimeoutMs,
    },
  });
  const Bucket = config.bucket;
  const fullKey = (key: string) => {
    assertSafeKey(key);
    return `${config.prefix}${key}`;
  };

  async function putBody(key: string, body: Buffer | Readable, size: number, type: string) {
    const answer = await client.send(
      new PutObjectCommand({
        Bucket,
        Key: fullKey(key),
        Body: body,
        ContentLength: size,
        ContentType: type,
      }),
    );
    return { size, etag: answer.ETag ?? '""', contentType: type };
  }

  async function deleteKeys(keys: string[]): Promise<void> {
    for (let start = 0; start < keys.length; start += DELETE_BATCH) {
      const batch = keys.slice(start, start + DELETE_BATCH);
      await client.send(
        new DeleteObjectsCommand({
          Bucket,
          Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true },
        }),
      );
    }
  }

  return {
    kind: 's3',
    // Only the store's own failures become 503; a failing upload body keeps its own error (size limit, cut off).
    put: (key, body, contentType) =>
      Buffer.isBuffer(body)
        ? guarded(() => putBody(key, body, body.length, contentType))
        : spooled(body, (file, size) =>
            guarded(() => putBody(key, createReadStream(file), size, contentType)),
          ),
    get: (key, range) =>
      guarded(async () => {
        try {
          const answer = await client.send(
            new GetObjectCommand({
              Bucket,
              Key: fullKey(key),
              Range: range ? `bytes=${range.start}-${range.end}` : undefined,
            }),
          );
          const total = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
          return {
            size: total ? Number(total) : (answer.ContentLength ?? 0),
            etag: answer.ETag ?? '""',
            contentType: answer.ContentType ?? 'application/octet-stream',
            body: answer.Body as Readable,
          };
        } catch (error) {
          if (isNotFound(error)) return undefined;
          throw error;
        }
      }),
    delete: (key) =>
      guarded(async () => {
        await client.send(new DeleteObjectCommand({ Bucket, Key: fullKey(key) }));
      }),
    deleteMany: (keys) => guarded(() => deleteKeys(keys.map(fullKey))),
    deletePrefix: (prefix) =>
      guarded(async () => {
        const Prefix = fullKey(prefix);
        let ContinuationToken: string | undefined;
        do {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }),
          );
          await deleteKeys((page.Contents ?? []).flatMap((item) => (item.Key ? [item.Key] : [])));
          ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (ContinuationToken);
      }),
    close: () => client.destroy(),
  };
}
