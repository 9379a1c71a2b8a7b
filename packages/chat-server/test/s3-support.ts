import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

/** s3rver checks signatures against these fixed credentials. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/** A real S3-compatible server (s3rver) on a free port with one bucket, its data in a temp directory. */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** The chat server's `uploads` config for this bucket under `prefix`. */
  uploadsConfig(prefix: string): {
    store: 's3';
    s3: {
      endpoint: string;
      region: string;
      bucket: string;
      accessKeyId: string;
      secretAccessKey: string;
      forcePathStyle: true;
      prefix: string;
      connectTimeoutMs: number;
    };
  };
  /** Every key in the bucket that starts with `prefix`, sorted. */
  keys(prefix: string): Promise<string[]>;
  /** Stops answering (connections refused) until `resume`; the stored objects stay. */
  pause(): Promise<void>;
  resume(): Promise<void>;
  close(): Promise<void>;
}

export async function startTestS3(): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), 'chat-s3rver-'));
  const bucket = 'dao-huu-test';
  const make = (port: number) =>
    new S3rver({
      address: '127.0.0.1',
      port,
      silent: true,
      directory,
      configureBuckets: [{ name: bucket }],
    });
  let server = make(0);
  const { port } = await server.run();
  let running = true;
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: CREDENTIALS,
  });
  return {
    endpoint,
    bucket,
    uploadsConfig: (prefix) => ({
      store: 's3',
      s3: {
        endpoint,
        region: 'us-east-1',
        bucket,
        ...CREDENTIALS,
        forcePathStyle: true,
        prefix,
        connectTimeoutMs: 1000,
      },
    }),
    async keys(prefix) {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix }));
      return (page.Contents ?? []).flatMap((item) => (item.Key ? [item.Key] : [])).sort();
    },
    async pause() {
      await server.close();
      running = false;
    },
    async resume() {
      server = make(port);
      await server.run();
      running = true;
    },
    async close() {
      client.destroy();
      if (running) await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 50 ms until it holds, failing after `timeoutMs` with what was awaited. */
export async function eventually(
  check: () => Promise<boolean>,
  description: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
