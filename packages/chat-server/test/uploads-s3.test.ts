import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestChatServer, type TestChatServer } from '../src/testing/harness.ts';
import {
  contractEnvOn,
  disconnectClients,
  twoMembers,
  uniqueId,
  useContractEnv,
  type ContractEnv,
} from './contract/helpers.ts';
import { eventually, startTestS3, type TestS3 } from './s3-support.ts';
import { startTwoNodes, type TwoNodes } from './two-nodes.ts';

const stream = (bytes: Buffer | string) => Readable.from([Buffer.from(bytes)]);
const png = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#2e8b57' } })
    .png()
    .toBuffer();
/** Fast job sweeps, so the clean-up job runs within the test's bounded waits. */
const jobs = { leaseMs: 3000, sweepMs: 200 };

/** `…/uploads/<app>/<file id>/<name>` → the key folder `<app>/<file id>/`. */
function folderOf(url: string): string {
  const [, appId, fileId] = /\/uploads\/([^/]+)\/([^/]+)\//.exec(new URL(url).pathname)!;
  return `${decodeURIComponent(appId!)}/${fileId!}/`;
}

describe('uploads in an S3-compatible bucket (s3rver)', () => {
  let s3: TestS3;
  const prefix = `t-${randomBytes(4).toString('hex')}/`;
  beforeAll(async () => {
    s3 = await startTestS3();
  });
  afterAll(async () => s3?.close());
  const env = useContractEnv(() => ({
    prefix: '/chat',
    config: { uploads: s3.uploadsConfig(prefix), jobs },
  }));

  it('stores a file in the bucket and serves it whole, by range and as 304, with the same headers as on disk', async () => {
    const { aliceChannel } = await twoMembers(env(), 's3-serve');
    const bytes = randomBytes(300 * 1024);
    const { file } = await aliceChannel.sendFile(stream(bytes), 'bi-kip.bin', 'application/zip');
    expect(await s3.keys(prefix + folderOf(file))).toEqual(
      ['meta.json', 'original'].map((name) => prefix + folderOf(file) + name),
    );

    const whole = await fetch(file);
    expect(whole.status).toBe(200);
    expect(whole.headers.get('content-length')).toBe(String(bytes.length));
    // In Node the client names the part's type after the file name.
    expect(whole.headers.get('content-type')).toBe('application/octet-stream');
    expect(whole.headers.get('content-disposition')).toBe('attachment; filename="bi-kip.bin"');
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(Buffer.from(await whole.arrayBuffer()).equals(bytes)).toBe(true);

    const part = await fetch(file, { headers: { range: 'bytes=1000-1999' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${bytes.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(bytes.subarray(1000, 2000))).toBe(true);
    const tail = await fetch(file, { headers: { range: 'bytes=-10' } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(bytes.subarray(-10))).toBe(true);
    expect((await fetch(file, { headers: { range: 'bytes=999999999-' } })).status).toBe(416);

    const etag = whole.headers.get('etag')!;
    expect((await fetch(file, { headers: { 'if-none-match': etag } })).status).toBe(304);
  });

  it('makes the thumbnail of an image and serves it from the bucket', async () => {
    const { aliceChannel } = await twoMembers(env(), 's3-thumb');
    const image = await aliceChannel.sendImage(stream(await png(800, 400)), 'nui.png', 'image/png');
    expect(image.thumb_url).toBeDefined();
    const thumb = await fetch(image.thumb_url!);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const size = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect([size.width, size.height]).toEqual([400, 200]);
    expect(await s3.keys(prefix + folderOf(image.file))).toHaveLength(3);
  });

  it('a hard delete hides the files at once, and the clean-up job then removes their objects', async () => {
    const { alice, aliceChannel } = await twoMembers(env(), 's3-delete');
    const image = await aliceChannel.sendImage(stream(await png(20, 20)), 'xoa.png', 'image/png');
    const doc = await aliceChannel.sendFile(stream('bí kíp'), 'bi-kip.txt', 'text/plain');
    const { message } = await aliceChannel.sendMessage({
      text: 'sẽ bị xoá hẳn',
      attachments: [
        { type: 'image', image_url: image.file, thumb_url: image.thumb_url },
        { type: 'file', asset_url: doc.file },
      ],
    });
    await alice.deleteMessage(message.id);
    expect((await fetch(image.file)).status).toBe(200);

    await env().admin.deleteMessage(message.id, true);
    for (const url of [image.file, image.thumb_url!, doc.file])
      expect((await fetch(url)).status).toBe(404);
    for (const url of [image.file, doc.file])
      await eventually(
        async () => (await s3.keys(prefix + folderOf(url))).length === 0,
        `the objects of ${url} to be deleted`,
      );
  });

  it('a file deleted through deleteFile is 404 at once and its objects go too', async () => {
    const { aliceChannel } = await twoMembers(env(), 's3-delete-file');
    const { file } = await aliceChannel.sendFile(stream('tạm'), 'tam.txt', 'text/plain');
    await aliceChannel.deleteFile(file);
    expect((await fetch(file)).status).toBe(404);
    await eventually(
      async () => (await s3.keys(prefix + folderOf(file))).length === 0,
      'the objects to be deleted',
    );
  });
});

describe('uploads while the bucket cannot be reached', () => {
  let s3: TestS3;
  let server: TestChatServer;
  let env: ContractEnv;
  const prefix = `down-${randomBytes(4).toString('hex')}/`;
  beforeAll(async () => {
    s3 = await startTestS3();
    server = await startTestChatServer({ config: { uploads: s3.uploadsConfig(prefix), jobs } });
    env = contractEnvOn(server);
  });
  afterAll(async () => {
    if (env) await disconnectClients(env);
    await server?.close();
    await s3?.close();
  });

  it('answers an upload and a download with a clean Stream error, keeps nothing half-stored, and works again once it is back', async () => {
    const { aliceChannel } = await twoMembers(env, 's3-down');
    const { file: kept } = await aliceChannel.sendFile(stream('còn'), 'con.txt', 'text/plain');
    await s3.pause();
    try {
      await expect(
        aliceChannel.sendFile(stream(randomBytes(64 * 1024)), 'mat.bin', 'application/zip'),
      ).rejects.toMatchObject({ code: -1, status: 503 });
      const download = await fetch(kept);
      expect(download.status).toBe(503);
      expect(await download.json()).toMatchObject({
        code: -1,
        StatusCode: 503,
        message: expect.stringContaining('file store'),
        more_info: expect.any(String),
      });
    } finally {
      await s3.resume();
    }
    // Only the file uploaded before the outage is in the bucket: the refused one left no object behind.
    const keys = await s3.keys(prefix);
    expect(keys.filter((key) => key.endsWith('/original'))).toEqual([
      prefix + folderOf(kept) + 'original',
    ]);
    expect((await fetch(kept)).status).toBe(200);
    const again = await aliceChannel.sendFile(stream('lại'), 'lai.txt', 'text/plain');
    expect((await fetch(again.file)).status).toBe(200);
  });
});

const redisUrl = process.env.REDIS_URL;

describe.skipIf(!redisUrl)('two nodes sharing a bucket, a database and Redis', () => {
  let s3: TestS3;
  let cluster: TwoNodes;
  const prefix = `two-${randomBytes(4).toString('hex')}/`;
  beforeAll(async () => {
    s3 = await startTestS3();
    cluster = await startTwoNodes(redisUrl!, 'uploads-s3', {
      uploads: s3.uploadsConfig(prefix),
      jobs,
    });
  }, 60_000);
  afterAll(async () => {
    await cluster?.close();
    await s3?.close();
  }, 60_000);

  it('serves through one node a file uploaded through the other, and a hard delete through either removes it', async () => {
    const [a, b] = cluster.envs as [ContractEnv, ContractEnv];
    const { aliceChannel } = await twoMembers(a, uniqueId('s3-two'));
    const image = await aliceChannel.sendImage(stream(await png(64, 32)), 'hai.png', 'image/png');
    const onB = (url: string) => url.replace(a.server.baseURL, b.server.baseURL);
    expect(onB(image.file)).not.toBe(image.file);
    const served = await fetch(onB(image.file));
    expect(served.status).toBe(200);
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).width).toBe(64);
    expect((await fetch(onB(image.thumb_url!))).status).toBe(200);

    const { message } = await aliceChannel.sendMessage({
      text: 'hai nút',
      attachments: [{ type: 'image', image_url: image.file, thumb_url: image.thumb_url }],
    });
    await b.admin.deleteMessage(message.id, true);
    expect((await fetch(image.file)).status).toBe(404);
    await eventually(
      async () => (await s3.keys(prefix + folderOf(image.file))).length === 0,
      'the objects to be deleted by the node holding the clean-up lease',
    );
  });
});
