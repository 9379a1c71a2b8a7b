import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import type { StreamChat } from 'stream-chat';
import { afterAll, describe, expect, it } from 'vitest';
import {
  EVENT_TIMEOUT_MS,
  connectUser,
  createUsers,
  expectStreamError,
  expectStreamErrorBody,
  newClient,
  uniqueId,
  useContractEnv,
  type ContractEnv,
} from '../contract/helpers.ts';

/*
 * Attacks on the upload path: bodies that never end, trickle in or lie about their framing, names that change once
 * cleaned, files that outlive their deletion in caches, and uploads by users who should not upload at all. The
 * server runs in this process, so /proc/self/fd shows its descriptors, and the uploads directory is ours to list.
 */

const uploadsDir = mkdtempSync(join(tmpdir(), 'chat-upload-attacks-'));
const MAX_BYTES = 256 * 1024;
const BOUNDARY = 'dao-huu-ranh-gioi';

afterAll(() => rmSync(uploadsDir, { recursive: true, force: true }));

const stream = (bytes: Buffer | string) => Readable.from([Buffer.from(bytes)]);

/** Polls a condition of the process or the disk (which no event announces) until it holds, within a bound. */
async function eventually(check: () => boolean, description: string): Promise<void> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting until ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

function descriptorCount(): number {
  return readdirSync('/proc/self/fd').length;
}

/** Paths of the files this process holds open inside the uploads directory. */
function openUploadFiles(): string[] {
  const open: string[] = [];
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      if (target.startsWith(uploadsDir)) open.push(target);
    } catch {
      // the descriptor was closed between listing and reading it
    }
  }
  return open;
}

/** Every file stored under the uploads directory, as `<app>/<file id>/<variant>`. */
function storedFiles(): string[] {
  return readdirSync(uploadsDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(uploadsDir.length + 1))
    .sort();
}

/** The attack left nothing behind: no descriptor into the uploads dir, no new stored file, no extra descriptor. */
async function expectNothingLeftBehind(before: { files: string[]; descriptors: number }) {
  await eventually(() => openUploadFiles().length === 0, 'no upload file is held open');
  await eventually(
    () => storedFiles().join() === before.files.join(),
    'the partial file is removed',
  );
  await eventually(
    () => descriptorCount() <= before.descriptors,
    `the descriptor count is back to ${before.descriptors}`,
  );
}

function snapshot() {
  return { files: storedFiles(), descriptors: descriptorCount() };
}

function partHead(filename: string, type = 'application/octet-stream', name = 'file'): string {
  return (
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
    `Content-Type: ${type}\r\n\r\n`
  );
}
const CLOSING = `\r\n--${BOUNDARY}--\r\n`;

interface RawUploadOptions {
  path?: string;
  userId: string;
  /** The declared body length; omitted means chunked. */
  contentLength?: number;
  contentType?: string;
}

interface RawAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: unknown;
}

interface OpenUpload {
  request: ClientRequest;
  /** The server's answer, read in full. */
  answer: Promise<RawAnswer>;
  /** Resolves when the TCP connection is closed (by either side). */
  closed: Promise<void>;
}

/** Starts an upload over a raw HTTP request whose body the test writes (or stops writing) itself. */
function openUpload(env: ContractEnv, options: RawUploadOptions): OpenUpload {
  const url = new URL(`${env.server.baseURL}${options.path ?? '/uploads/file'}`);
  url.searchParams.set('api_key', env.server.apiKey);
  url.searchParams.set('user_id', options.userId);
  const headers: Record<string, string> = {
    authorization: env.admin.createToken(options.userId),
    'stream-auth-type': 'jwt',
    'content-type': options.contentType ?? `multipart/form-data; boundary=${BOUNDARY}`,
  };
  if (options.contentLength !== undefined)
    headers['content-length'] = String(options.contentLength);
  const request = httpRequest(url, { method: 'POST', headers, agent: false });
  const closed = new Promise<void>((resolve) => {
    request.on('socket', (socket) => socket.on('close', () => resolve()));
  });
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // kept as text for the assertion message
        }
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
      });
      response.on('error', reject);
    });
    request.on('error', reject);
  });
  answer.catch(() => undefined);
  return { request, answer, closed };
}

/** Races a promise against the shared bound, so an attack the server never answers fails instead of hanging. */
function within<T>(promise: Promise<T>, description: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`Timed out after ${EVENT_TIMEOUT_MS * 2} ms waiting for ${description}`)),
      EVENT_TIMEOUT_MS * 2,
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

/** Sends a whole body in one go, on its own connection (a pooled one would count as a leftover descriptor). */
async function postBody(
  env: ContractEnv,
  userId: string,
  body: string | Buffer | FormData,
  contentType?: string,
  path?: string,
): Promise<RawAnswer> {
  let bytes: Buffer;
  let type = contentType;
  if (body instanceof FormData) {
    const encoded = new Response(body);
    type = encoded.headers.get('content-type') ?? undefined;
    bytes = Buffer.from(await encoded.arrayBuffer());
  } else bytes = Buffer.from(body);
  const upload = openUpload(env, {
    userId,
    path,
    contentLength: bytes.length,
    contentType: type,
  });
  upload.request.end(bytes);
  return upload.answer;
}

/** A form with one file part whose name and declared type the test chooses (a Blob lets it pick any type). */
function formWith(filename: string, type: string, content: string | Buffer, field = 'file') {
  const form = new FormData();
  form.append(field, new Blob([content], { type }), filename);
  return form;
}

async function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#8b0000' } })
    .png()
    .toBuffer();
}

describe('uploads under attack', () => {
  const env = useContractEnv({
    prefix: '/chat',
    config: {
      uploads: {
        dir: uploadsDir,
        maxBytes: MAX_BYTES,
        timeoutMs: 2500,
        idleTimeoutMs: 1000,
        maxConcurrentPerUser: 2,
      },
      // Guests on, to prove that even then they cannot upload.
      apps: [
        {
          key: `uploads-${randomUUID()}`,
          secret: randomUUID(),
          guests: { enabled: true },
        },
      ],
    },
  });

  /** A registered user, with one successful upload made so the server's pools are warm before counting. */
  async function uploader(): Promise<{ id: string; client: StreamChat }> {
    const id = uniqueId('tu-si');
    await createUsers(env(), [id]);
    const client = await connectUser(env(), id);
    await client.uploadFile(stream('khởi động'), 'khoi-dong.txt', 'text/plain');
    return { id, client };
  }

  describe('#5 a truncated upload', () => {
    it('an upload whose client goes away mid-body leaves no open file and no partial file', async () => {
      const { id } = await uploader();
      const before = snapshot();
      for (let attempt = 0; attempt < 3; attempt++) {
        const upload = openUpload(env(), { userId: id, contentLength: 200 * 1024 });
        upload.request.write(partHead('dang-do.bin'));
        upload.request.write(Buffer.alloc(32 * 1024, 7));
        // The attack counts only once the server holds a partial file open.
        await eventually(() => openUploadFiles().length > 0, 'the server writes the partial file');
        upload.request.destroy();
        await within(upload.closed, 'the connection to close');
        await expectNothingLeftBehind(before);
      }
    });

    it('an upload whose body stops arriving is answered with code 23 and its partial file removed', async () => {
      const { id } = await uploader();
      const before = snapshot();
      const upload = openUpload(env(), { userId: id, contentLength: 200 * 1024 });
      upload.request.write(partHead('bo-do.bin'));
      upload.request.write(Buffer.alloc(16 * 1024, 1));
      const answer = await within(upload.answer, 'the stalled upload to be answered');
      expectStreamErrorBody(answer, 23, 408);
      await within(upload.closed, 'the server to close the stalled connection');
      await expectNothingLeftBehind(before);
    });

    it('a request that sends its headers and then nothing is answered with code 23', async () => {
      const { id } = await uploader();
      const before = snapshot();
      const upload = openUpload(env(), { userId: id, contentLength: 10 * 1024 });
      upload.request.flushHeaders();
      const answer = await within(upload.answer, 'the bodiless upload to be answered');
      expectStreamErrorBody(answer, 23, 408);
      await within(upload.closed, 'the server to close the connection');
      await expectNothingLeftBehind(before);
    });

    it('an upload whose body trickles in (slowloris) is cut off at the deadline and removed', async () => {
      const { id } = await uploader();
      const before = snapshot();
      const upload = openUpload(env(), { userId: id, contentLength: 200 * 1024 });
      upload.request.write(partHead('nho-giot.bin'));
      // One byte every 100 ms never trips the 1 s idle timeout; only the 2.5 s deadline ends it.
      const trickle = setInterval(() => {
        if (!upload.request.destroyed) upload.request.write('x');
      }, 100);
      try {
        const answer = await within(upload.answer, 'the trickling upload to be answered');
        expectStreamErrorBody(answer, 23, 408);
        await within(upload.closed, 'the server to close the trickling connection');
      } finally {
        clearInterval(trickle);
        upload.request.destroy();
      }
      await expectNothingLeftBehind(before);
    });

    it('a complete request whose multipart body ends mid-file is refused with code 4 and removed', async () => {
      const { id } = await uploader();
      const cid = uniqueId('kho-cat');
      await env()
        .admin.channel('messaging', cid, { created_by_id: id, members: [id] })
        .create();
      const before = snapshot();
      const body = Buffer.concat([
        Buffer.from(partHead('cut.bin')),
        Buffer.alloc(8 * 1024, 3),
        // no closing boundary: the multipart is cut although the HTTP body is complete
      ]);
      // The channel route checks access first, so the parser meets the cut before the file part is read.
      for (const path of ['/uploads/file', `/channels/messaging/${cid}/file`]) {
        const answer = await within(
          postBody(env(), id, body, `multipart/form-data; boundary=${BOUNDARY}`, path),
          `the cut multipart on ${path} to be answered`,
        );
        expectStreamErrorBody(answer, 4, 400);
        await expectNothingLeftBehind(before);
      }
    });

    it('an upload over the size limit without a declared length is refused with code 22 and removed', async () => {
      const { id } = await uploader();
      const before = snapshot();
      const upload = openUpload(env(), { userId: id });
      upload.request.write(partHead('qua-lon.bin'));
      for (let i = 0; i < 5; i++) upload.request.write(Buffer.alloc(64 * 1024, 9));
      upload.request.end(CLOSING);
      const answer = await within(upload.answer, 'the oversize upload to be answered');
      expectStreamErrorBody(answer, 22, 413);
      await expectNothingLeftBehind(before);
    });

    it('an upload refused before its body is read does not keep the connection open', async () => {
      const { id } = await uploader();
      const before = snapshot();
      const owner = uniqueId('chu-kho');
      await createUsers(env(), [owner]);
      const stranger = uniqueId('kho-cam');
      await env().admin.channel('messaging', stranger, { created_by_id: owner }).create();
      const upload = openUpload(env(), {
        userId: id,
        path: `/channels/messaging/${stranger}/file`,
        contentLength: 200 * 1024,
      });
      upload.request.write(partHead('lan-vao.bin'));
      upload.request.write(Buffer.alloc(8 * 1024, 5));
      const answer = await within(upload.answer, 'the refused upload to be answered');
      expectStreamErrorBody(answer, 17, 403);
      // The client never finishes its body; the server must still let go of the connection.
      await within(upload.closed, 'the server to close the refused connection');
      await expectNothingLeftBehind(before);
    });
    it('one user cannot hold more uploads open at once than the per-user limit', async () => {
      const { id, client } = await uploader();
      const before = snapshot();
      const held = [0, 1].map(() => {
        const upload = openUpload(env(), { userId: id, contentLength: 200 * 1024 });
        upload.request.write(partHead('giu-cho.bin'));
        upload.request.write(Buffer.alloc(4 * 1024, 2));
        return upload;
      });
      try {
        await eventually(() => openUploadFiles().length >= 2, 'both uploads are being written');
        await expectStreamError(client.uploadFile(stream('x'), 'thu-ba.txt', 'text/plain'), {
          code: 9,
          status: 429,
        });
      } finally {
        for (const upload of held) upload.request.destroy();
      }
      await expectNothingLeftBehind(before);
      // A slot comes back when its cut upload's handler has finished cleaning up, a moment after the file is gone;
      // until then the refusal is the same clean 429.
      const uploadAgain = () =>
        client.uploadFile(stream('x'), 'sau-do.txt', 'text/plain').catch((error: unknown) => {
          if ((error as { code?: unknown }).code === 9) return null;
          throw error;
        });
      let answer = await uploadAgain();
      for (const deadline = Date.now() + 5_000; answer === null && Date.now() < deadline;) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        answer = await uploadAgain();
      }
      expect(answer).toEqual(expect.objectContaining({ file: expect.any(String) }));
    });
  });

  describe('#15 multipart without a boundary', () => {
    it('a multipart upload without a boundary is refused with code 4, not 500', async () => {
      const { id } = await uploader();
      const answer = await postBody(
        env(),
        id,
        partHead('x.txt') + 'x' + CLOSING,
        'multipart/form-data',
      );
      expectStreamErrorBody(answer, 4, 400);
    });

    it('a multipart body with malformed part headers is refused with code 4', async () => {
      const { id } = await uploader();
      const body = `--${BOUNDARY}\r\n${'X'.repeat(100 * 1024)}\r\n\r\nx${CLOSING}`;
      const answer = await postBody(env(), id, body, `multipart/form-data; boundary=${BOUNDARY}`);
      expectStreamErrorBody(answer, 4, 400);
    });

    it('two files in one upload are refused with code 4 and neither is kept', async () => {
      const { id } = await uploader();
      const before = snapshot();
      const form = formWith('mot.txt', 'text/plain', 'một');
      form.append('file', new Blob(['hai'], { type: 'text/plain' }), 'hai.txt');
      const answer = await postBody(env(), id, form);
      expectStreamErrorBody(answer, 4, 400);
      await expectNothingLeftBehind(before);
    });

    it('a file part that is not named "file" is refused with code 4 and not kept', async () => {
      const { id } = await uploader();
      const before = snapshot();
      const answer = await postBody(
        env(),
        id,
        formWith('tai-lieu.txt', 'text/plain', 'x', 'document'),
      );
      expectStreamErrorBody(answer, 4, 400);
      expect((answer.body as { message: string }).message).toContain('"file"');
      await expectNothingLeftBehind(before);
    });

    it('a file whose declared content type cannot be a header is refused with code 4', async () => {
      const { id } = await uploader();
      const body = partHead('la.txt', 'text/pl\u00e0in') + 'x' + CLOSING;
      const answer = await postBody(
        env(),
        id,
        Buffer.from(body, 'latin1'),
        `multipart/form-data; boundary=${BOUNDARY}`,
      );
      expectStreamErrorBody(answer, 4, 400);
    });
  });

  describe('#16 upload rules are checked on the stored name', () => {
    it('a full-width, accented or dotted .exe cannot pass a .exe block', async () => {
      const { client } = await uploader();
      await env().admin.updateAppSettings({
        file_upload_config: { blocked_file_extensions: ['.exe'] },
      });
      try {
        for (const name of [
          'evil.ｅｘｅ',
          'evil.EXE',
          'evil.exe.',
          'evil.exe ',
          'evil.e\u0301xe',
        ]) {
          await expectStreamError(
            client.uploadFile(stream('MZ'), name, 'application/octet-stream'),
            {
              code: 4,
              status: 400,
              message: /blocked_file_extensions/,
            },
          );
        }
      } finally {
        await env().admin.updateAppSettings({ file_upload_config: {} });
      }
    });

    it('a blocked mime type cannot pass with parameters or another case', async () => {
      const { id } = await uploader();
      await env().admin.updateAppSettings({
        file_upload_config: { blocked_mime_types: ['text/html'] },
      });
      try {
        for (const type of ['text/html; charset=utf-8', 'TEXT/HTML', ' text/html ']) {
          const body = partHead('trang.txt', type) + '<script>alert(1)</script>' + CLOSING;
          const answer = await postBody(
            env(),
            id,
            body,
            `multipart/form-data; boundary=${BOUNDARY}`,
          );
          expectStreamErrorBody(answer, 4, 400);
          expect((answer.body as { message: string }).message, type).toContain(
            'blocked_mime_types',
          );
        }
      } finally {
        await env().admin.updateAppSettings({ file_upload_config: {} });
      }
    });

    it('a name with path segments is stored as one plain name inside its own folder', async () => {
      const { client } = await uploader();
      const before = new Set(storedFiles());
      const { file } = await client.uploadFile(
        stream('x'),
        '../../../etc/passwd.txt',
        'text/plain',
      );
      expect(new URL(file).pathname).toMatch(/\/uploads\/[^/]+\/[0-9a-f-]{36}\/[A-Za-z0-9._-]+$/);
      const added = storedFiles().filter((path) => !before.has(path));
      expect(
        added.every((path) => /^[^/]+\/[0-9a-f-]{36}\/(original|meta\.json)$/.test(path)),
      ).toBe(true);
      expect((await fetch(file)).status).toBe(200);
    });
  });

  describe('#17 files with long names', () => {
    it('a file whose name is over 100 characters is served at the URL the upload returns', async () => {
      const { client } = await uploader();
      const name = `${'bí-kíp-luyện-đan-'.repeat(10)}.txt`;
      const { file } = await client.uploadFile(stream('đan'), name, 'text/plain');
      expect(file).toMatch(/\.txt$/);
      const served = await fetch(file);
      expect(served.status, await served.clone().text()).toBe(200);
      expect(await served.text()).toBe('đan');
    });

    it('an image with a long name is served with its thumbnail', async () => {
      const { client } = await uploader();
      const name = `${'a'.repeat(150)}.png`;
      const { file, thumb_url } = await client.uploadImage(
        stream(await png(30, 20)),
        name,
        'image/png',
      );
      expect((await fetch(file)).status).toBe(200);
      expect(thumb_url).toBeDefined();
      expect((await fetch(thumb_url!)).status).toBe(200);
    });
  });

  describe('#18 served files', () => {
    it('a deletable file is not cached for long or by shared caches', async () => {
      const { client } = await uploader();
      const { file } = await client.uploadFile(stream('tạm'), 'tam.txt', 'text/plain');
      const served = await fetch(file);
      const cacheControl = served.headers.get('cache-control') ?? '';
      expect(cacheControl).not.toContain('immutable');
      expect(cacheControl).not.toContain('public');
      expect(cacheControl).toContain('private');
      const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1] ?? 0);
      expect(maxAge).toBeLessThanOrEqual(300);
    });

    it('a browser holding a copy revalidates it, and a deleted file is not revalidated', async () => {
      const { client } = await uploader();
      const { file } = await client.uploadFile(stream('tạm'), 'tam.txt', 'text/plain');
      const etag = (await fetch(file)).headers.get('etag');
      expect(etag).toBeTruthy();
      expect((await fetch(file, { headers: { 'if-none-match': etag! } })).status).toBe(304);
      await client.deleteFile(file);
      expect((await fetch(file, { headers: { 'if-none-match': etag! } })).status).toBe(404);
    });

    it('html, svg and script files are never rendered on our origin', async () => {
      const { id } = await uploader();
      for (const [name, type] of [
        ['trang.html', 'text/html'],
        ['hinh.svg', 'image/svg+xml'],
        ['ma.js', 'text/javascript'],
        ['trang.xhtml', 'application/xhtml+xml'],
      ] as const) {
        const answer = await postBody(env(), id, formWith(name, type, '<svg onload="alert(1)"/>'));
        expect(answer.status, name).toBe(200);
        const served = await fetch((answer.body as { file: string }).file);
        expect(served.headers.get('content-disposition'), name).toMatch(/^attachment/);
        expect(served.headers.get('x-content-type-options'), name).toBe('nosniff');
        expect(served.headers.get('content-security-policy'), name).toMatch(
          /default-src 'none'.*sandbox/,
        );
      }
    });
  });

  describe('#6 guests cannot upload', () => {
    it('a guest cannot upload a file or an image', async () => {
      const guest = newClient(env());
      await guest.setGuestUser({ id: uniqueId('khach') });
      const before = snapshot();
      await expectStreamError(guest.uploadFile(stream('x'), 'khach.txt', 'text/plain'), {
        code: 17,
        status: 403,
      });
      await expectStreamError(
        guest.uploadImage(stream(await png(4, 4)), 'khach.png', 'image/png'),
        {
          code: 17,
          status: 403,
        },
      );
      expect(storedFiles()).toEqual(before.files);
    });

    it('a user whose role is guest cannot upload to a channel they belong to', async () => {
      const id = uniqueId('khach');
      await createUsers(env(), [{ id, role: 'guest' }]);
      const cid = uniqueId('phong-khach');
      await env()
        .admin.channel('messaging', cid, { created_by_id: id, members: [id] })
        .create();
      const guest = await connectUser(env(), id);
      await expectStreamError(
        guest.channel('messaging', cid).sendFile(stream('x'), 'khach.txt', 'text/plain'),
        { code: 17, status: 403 },
      );
    });

    it('an anonymous user cannot upload', async () => {
      const anonymous = newClient(env());
      await anonymous.connectAnonymousUser();
      await expectStreamError(anonymous.uploadFile(stream('x'), 'an-danh.txt', 'text/plain'), {
        code: 17,
        status: 403,
      });
    });
  });
});
