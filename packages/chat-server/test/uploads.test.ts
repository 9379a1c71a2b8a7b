import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import {
  createChannelAsServer,
  newClient,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './contract/helpers.ts';

function png(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: '#b8860b' } })
    .png()
    .toBuffer();
}

const stream = (bytes: Buffer | string) => Readable.from([Buffer.from(bytes)]);

interface RawAnswer {
  status: number;
  body: { code?: number; message?: string; file?: string };
}

describe('uploads with the real client', () => {
  const uploadsDir = mkdtempSync(join(tmpdir(), 'chat-uploads-test-'));
  const env = useContractEnv({
    prefix: '/chat',
    config: { uploads: { dir: uploadsDir, maxBytes: 4 * 1024 * 1024 } },
  });
  afterAll(() => rmSync(uploadsDir, { recursive: true, force: true }));

  /** Alice and Bob (unique ids) watching a new channel of their own. */
  const scene = (prefix: string) => twoMembers(env(), prefix);

  /** The client derives a stream's part type from its name in Node; a Blob lets the test choose any type. */
  async function rawUpload(
    channelId: string,
    userId: string,
    file: { name: string; type: string; content: string },
  ): Promise<RawAnswer> {
    const form = new FormData();
    form.append('file', new Blob([file.content], { type: file.type }), file.name);
    const { server, admin } = env();
    const response = await fetch(
      `${server.baseURL}/channels/messaging/${channelId}/file?api_key=${server.apiKey}`,
      {
        method: 'POST',
        headers: { authorization: admin.createToken(userId), 'stream-auth-type': 'jwt' },
        body: form,
      },
    );
    return { status: response.status, body: (await response.json()) as RawAnswer['body'] };
  }

  it('uploads an image with its size and thumbnail, then a message carrying it reaches the other member', async () => {
    const { aliceChannel: channel, bobChannel } = await scene('image');
    const response = (await channel.sendImage(
      stream(await png(800, 600)),
      'Đan dược.png',
      'image/png',
    )) as {
      file: string;
      thumb_url?: string;
      original_width?: number;
      original_height?: number;
    };
    expect(response.file).toMatch(
      new RegExp(
        `^${env().server.baseURL}/uploads/[^/]+/[0-9a-f-]{36}/Dan-duoc\\.png\\?oh=600&ow=800$`,
      ),
    );
    expect(response.original_width).toBe(800);
    expect(response.original_height).toBe(600);

    const original = await fetch(response.file);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/png');
    expect(original.headers.get('x-content-type-options')).toBe('nosniff');
    expect(original.headers.get('content-disposition')).toMatch(/^inline/);
    const thumb = await fetch(response.thumb_url!);
    expect(thumb.headers.get('content-type')).toBe('image/webp');
    const thumbMeta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
    expect(Math.max(thumbMeta.width, thumbMeta.height)).toBeLessThanOrEqual(400);

    const received = waitForEvent(bobChannel, 'message.new');
    await channel.sendMessage({
      text: 'Đan dược mới luyện',
      attachments: [
        {
          type: 'image',
          image_url: response.file,
          thumb_url: response.thumb_url,
          original_width: response.original_width,
          original_height: response.original_height,
          fallback: 'Đan dược.png',
        },
      ],
    });
    const event = await received;
    expect(event.message?.attachments).toEqual([
      expect.objectContaining({
        type: 'image',
        image_url: response.file,
        thumb_url: response.thumb_url,
      }),
    ]);
  });

  it('GET /app reports the upload configs, and PATCH /app changes them for this app only', async () => {
    const { alice, aliceChannel } = await scene('app-settings');
    const { admin } = env();
    const before = await alice.getAppSettings();
    expect(before.app?.file_upload_config).toEqual({
      allowed_file_extensions: [],
      blocked_file_extensions: [],
      allowed_mime_types: [],
      blocked_mime_types: [],
      size_limit: 0,
    });
    await admin.updateAppSettings({
      image_upload_config: { blocked_file_extensions: ['.gif'], size_limit: 2_000_000 },
    });
    try {
      const after = await alice.getAppSettings();
      expect(after.app?.image_upload_config).toMatchObject({
        blocked_file_extensions: ['.gif'],
        size_limit: 2_000_000,
      });
      const gif = await sharp({ create: { width: 2, height: 2, channels: 3, background: '#fff' } })
        .gif()
        .toBuffer();
      await expect(
        aliceChannel.sendImage(stream(gif), 'phu.gif', 'image/gif'),
      ).rejects.toMatchObject({
        code: 4,
        message: expect.stringContaining('image_upload_config.blocked_file_extensions'),
      });
      await expect(
        alice.updateAppSettings({ image_upload_config: { blocked_file_extensions: [] } }),
      ).rejects.toMatchObject({ code: 17 });
    } finally {
      await admin.updateAppSettings({ image_upload_config: {} });
    }
  });

  it('applies the upload check in the order of docs/product-rules.md §6, naming the rule that refused', async () => {
    const { aliceId, aliceChannel, channelId } = await scene('check-order');
    const { admin } = env();
    const upload = (name: string, type: string, content: string) =>
      rawUpload(channelId, aliceId, { name, type, content });
    await admin.updateAppSettings({
      file_upload_config: {
        allowed_file_extensions: ['.txt', '.exe', '.bin', '.log'],
        blocked_file_extensions: ['exe'],
        allowed_mime_types: ['text/*', 'application/octet-stream'],
        blocked_mime_types: ['application/octet-stream'],
        size_limit: 10,
      },
    });
    const cases: [string, string, string, string][] = [
      // A file failing several rules is named after the first one in the order.
      ['bi-kip.pdf', 'application/octet-stream', 'x', 'allowed_file_extensions'],
      ['phap-bao.exe', 'application/octet-stream', 'x', 'blocked_file_extensions'],
      ['ghi-chep.txt', 'application/pdf', 'x', 'allowed_mime_types'],
      ['du-lieu.bin', 'application/octet-stream', 'x', 'blocked_mime_types'],
      ['nhat-ky.log', 'text/plain', 'mười một byte', 'size_limit'],
    ];
    try {
      for (const [name, type, content, rule] of cases) {
        const refusal = await upload(name, type, content);
        expect(refusal.body.message, name).toContain(`file_upload_config.${rule}`);
        expect(refusal.body.code, name).toBe(rule === 'size_limit' ? 22 : 4);
        expect(refusal.status, name).toBe(rule === 'size_limit' ? 413 : 400);
      }
      const accepted = await upload('ghi-chep.txt', 'text/plain', 'ok');
      expect(accepted.body.file).toMatch(/ghi-chep\.txt$/);
      // Images answer to image_upload_config, which has no restriction here.
      await expect(
        aliceChannel.sendImage(stream(await png(4, 4)), 'anh.png', 'image/png'),
      ).resolves.toMatchObject({ file: expect.any(String) });
    } finally {
      await admin.updateAppSettings({ file_upload_config: {} });
    }
  });

  it('refuses a message with more than 10 attachments', async () => {
    const { aliceChannel: channel } = await scene('attachments');
    const attachment = { type: 'file', asset_url: 'https://dao-huu.vn/a.txt', title: 'a.txt' };
    await expect(
      channel.sendMessage({ text: 'quá nhiều', attachments: Array(11).fill(attachment) }),
    ).rejects.toMatchObject({ code: 4 });
    const sent = await channel.sendMessage({
      text: 'vừa đủ',
      attachments: Array(10).fill(attachment),
    });
    expect(sent.message.attachments).toHaveLength(10);
  });

  it('requires the upload-file capability and membership', async () => {
    const { alice, bobId } = await scene('capability');
    const livestreamId = uniqueId('dai-hoi');
    await createChannelAsServer(env(), 'livestream', livestreamId, bobId, { members: [bobId] });
    const livestream = alice.channel('livestream', livestreamId);
    const state = await livestream.watch();
    expect(state.channel.own_capabilities).not.toContain('upload-file');
    await expect(livestream.sendFile(stream('x'), 'x.txt', 'text/plain')).rejects.toMatchObject({
      code: 17,
    });

    const privateId = uniqueId('mat-that');
    await createChannelAsServer(env(), 'messaging', privateId, bobId, { members: [bobId] });
    await expect(
      alice.channel('messaging', privateId).sendFile(stream('x'), 'x.txt', 'text/plain'),
    ).rejects.toMatchObject({ code: 17 });
  });

  it('refuses uploads from anonymous users, even outside a channel', async () => {
    const anonymous = newClient(env());
    await anonymous.connectAnonymousUser();
    await expect(anonymous.uploadFile(stream('x'), 'x.txt', 'text/plain')).rejects.toMatchObject({
      code: 17,
    });
  });

  it('a hard delete removes the files the author attached, a soft delete keeps them', async () => {
    const { alice, aliceChannel: channel } = await scene('hard-delete');
    const { server, admin } = env();
    const image = await channel.sendImage(stream(await png(20, 10)), 'xoa.png', 'image/png');
    const doc = await channel.sendFile(stream('bí kíp'), 'bi-kip.txt', 'text/plain');
    const folders = () => readdirSync(join(uploadsDir, server.apiKey));
    const before = folders().length;
    const { message } = await channel.sendMessage({
      text: 'sẽ bị xoá',
      attachments: [
        { type: 'image', image_url: image.file, thumb_url: image.thumb_url },
        { type: 'file', asset_url: doc.file, title: 'bi-kip.txt' },
      ],
    });
    await alice.deleteMessage(message.id);
    const kept = await fetch(image.file);
    expect(kept.status, await kept.clone().text()).toBe(200);

    await admin.deleteMessage(message.id, true);
    expect((await fetch(image.file)).status).toBe(404);
    expect((await fetch(image.thumb_url!)).status).toBe(404);
    expect((await fetch(doc.file)).status).toBe(404);
    expect(folders()).toHaveLength(before - 2);
  });

  it('removes the files of a channel deleted for good, and of messages a hard truncate removes', async () => {
    const { alice, aliceId, bobId } = await scene('channel-files');
    const { admin } = env();
    const attach = async (channelId: string, text: string) => {
      const channel = alice.channel('messaging', channelId);
      const image = await channel.sendImage(stream(await png(8, 8)), 'anh.png', 'image/png');
      await channel.sendMessage({
        text,
        attachments: [{ type: 'image', image_url: image.file, thumb_url: image.thumb_url }],
      });
      return image.file;
    };
    const softDeleted = uniqueId('phe-tich');
    const hardDeleted = uniqueId('tan-tich');
    const truncated = uniqueId('cat-tich');
    for (const channelId of [softDeleted, hardDeleted, truncated]) {
      await alice.channel('messaging', channelId, { members: [aliceId, bobId] }).create();
    }

    const softGone = await attach(softDeleted, 'xoá mềm');
    await admin.channel('messaging', softDeleted).delete();
    expect((await fetch(softGone)).status).toBe(200);
    const hardGone = await attach(hardDeleted, 'xoá hẳn');
    await admin.channel('messaging', hardDeleted).delete({ hard_delete: true });
    expect((await fetch(hardGone)).status).toBe(404);

    const truncatedSoft = await attach(truncated, 'cắt mềm');
    await admin.channel('messaging', truncated).truncate();
    expect((await fetch(truncatedSoft)).status).toBe(200);
    const truncatedHard = await attach(truncated, 'cắt hẳn');
    await admin.channel('messaging', truncated).truncate({ hard_delete: true });
    expect((await fetch(truncatedHard)).status).toBe(404);
    expect((await fetch(truncatedSoft)).status).toBe(404);
  });

  it('stores a Buffer sent without a name or type under a generic name, and refuses it as an image with code 4', async () => {
    const { aliceChannel: channel } = await scene('nameless');
    // In Node the client sends a Buffer's part with no filename and application/octet-stream. Its types name
    // streams and Files only, though Stream's docs pass Buffers.
    const nameless = (bytes: Buffer) => bytes as unknown as File;
    const { file } = await channel.sendFile(nameless(Buffer.from('lời nhắn không tên')));
    expect(decodeURIComponent(new URL(file).pathname)).toMatch(/\/file$/);
    const served = await fetch(file);
    expect(served.status).toBe(200);
    expect(await served.text()).toBe('lời nhắn không tên');

    await expect(channel.sendImage(nameless(await png(4, 4)))).rejects.toMatchObject({
      code: 4,
      response: { status: 400 },
    });
  });

  it('deletes an upload through deleteFile, and refuses other users', async () => {
    const { aliceChannel: channel, bobChannel } = await scene('delete-file');
    const { file } = await channel.sendFile(stream('x'), 'rieng.txt', 'text/plain');
    await expect(bobChannel.deleteFile(file)).rejects.toMatchObject({
      code: 17,
    });
    await channel.deleteFile(file);
    expect((await fetch(file)).status).toBe(404);
  });

  it('refuses bad input with clear 4xx errors', async () => {
    const { aliceId, aliceChannel: channel, channelId } = await scene('bad-input');
    const { server, admin } = env();
    const url = `${server.baseURL}/channels/messaging/${channelId}/file?api_key=${server.apiKey}`;
    const headers = { authorization: admin.createToken(aliceId), 'stream-auth-type': 'jwt' };

    const noFile = new FormData();
    noFile.append('user', JSON.stringify({ id: aliceId }));
    const missing = await fetch(url, { method: 'POST', headers, body: noFile });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { message: string }).message).toContain('File is required');

    await expect(channel.sendFile(stream(''), 'rong.txt', 'text/plain')).rejects.toMatchObject({
      code: 4,
      message: expect.stringContaining('empty'),
    });
    // Text claiming to be a PNG is refused on both routes.
    await expect(
      channel.sendImage(stream('<script>alert(1)</script>'), 'gia.png', 'image/png'),
    ).rejects.toMatchObject({ code: 4 });
    const lying = await rawUpload(channelId, aliceId, {
      name: 'gia.png',
      type: 'image/png',
      content: '<html><script>alert(1)</script>',
    });
    expect(lying.body).toMatchObject({ code: 4, message: expect.stringContaining('not a valid') });

    const traversal = await rawUpload(channelId, aliceId, {
      name: '../../etc/passwd.txt',
      type: 'text/plain',
      content: 'x',
    });
    expect(traversal.body.file).toMatch(/\/[0-9a-f-]{36}\/[a-z.-]*passwd\.txt$/);
    expect(existsSync(join(uploadsDir, 'etc'))).toBe(false);
    expect(
      (await fetch(`${server.baseURL}/uploads/..%2F..%2F/00000000-0000-0000-0000-000000000000/x`))
        .status,
    ).toBe(404);

    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        url,
        {
          method: 'POST',
          headers: {
            ...headers,
            'content-type': 'multipart/form-data; boundary=x',
            'content-length': String(50 * 1024 * 1024 * 1024),
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        },
      );
      req.on('error', reject);
      req.write('--x\r\n');
    });
    expect(status).toBe(413);
  });

  it('serves ranges of audio, and downloads anything a browser should not render', async () => {
    const { aliceId, aliceChannel: channel, channelId } = await scene('ranges');
    const bytes = Buffer.from(Array.from({ length: 100 }, (_, i) => i));
    const audio = await channel.sendFile(stream(bytes), 'tieng-chuong.mp3', 'audio/mpeg');
    const partial = await fetch(audio.file, { headers: { range: 'bytes=10-19' } });
    expect(partial.status).toBe(206);
    expect(partial.headers.get('content-range')).toBe('bytes 10-19/100');
    expect([...new Uint8Array(await partial.arrayBuffer())]).toEqual([...bytes.subarray(10, 20)]);
    const tail = await fetch(audio.file, { headers: { range: 'bytes=-5' } });
    expect([...new Uint8Array(await tail.arrayBuffer())]).toEqual([95, 96, 97, 98, 99]);
    expect((await fetch(audio.file, { headers: { range: 'bytes=200-' } })).status).toBe(416);

    for (const [name, type] of [
      ['trang.html', 'text/html'],
      ['hinh.svg', 'image/svg+xml'],
      ['tai-lieu.pdf', 'application/pdf'],
    ]) {
      const { body } = await rawUpload(channelId, aliceId, {
        name: name!,
        type: type!,
        content: '<svg onload="alert(1)"/>',
      });
      const served = await fetch(body.file!);
      expect(served.headers.get('content-disposition'), name).toMatch(/^attachment/);
      expect(served.headers.get('content-type'), name).toBe(type);
      expect(served.headers.get('x-content-type-options'), name).toBe('nosniff');
    }
  });
});
