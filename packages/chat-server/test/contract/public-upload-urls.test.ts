import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { twoMembers, useContractEnv, type ContractEnv } from './helpers.ts';

/** Uploads a small text file to a new channel of two members, with extra request headers; returns the file URL. */
async function uploadWith(
  env: ContractEnv,
  headers: Record<string, string>,
): Promise<{ status: number; file?: string }> {
  const { channelId, aliceId } = await twoMembers(env, 'bi-kip');
  const form = new FormData();
  form.append('file', new Blob(['Cửu Âm Chân Kinh'], { type: 'text/plain' }), 'chan-kinh.txt');
  const response = await fetch(
    `${env.server.baseURL}/channels/messaging/${channelId}/file?api_key=${env.server.apiKey}`,
    {
      method: 'POST',
      headers: {
        authorization: env.admin.createToken(aliceId),
        'stream-auth-type': 'jwt',
        ...headers,
      },
      body: form,
    },
  );
  const body = (await response.json()) as { file?: string };
  return { status: response.status, file: body.file };
}

const FORWARDED = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'daohuu.example' };

describe('upload links use the public origin', { timeout: 20_000 }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'chat-public-urls-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('without a trusted proxy', () => {
    const env = useContractEnv({ config: { uploads: { dir } } });

    it('ignores forwarded scheme and host, which anyone could send', async () => {
      const { status, file } = await uploadWith(env(), FORWARDED);
      expect(status).toBe(200);
      expect(file?.startsWith(`${env().server.baseURL}/uploads/`)).toBe(true);
    });
  });

  describe('behind one trusted proxy', () => {
    const env = useContractEnv({ config: { uploads: { dir }, rateLimits: { trustProxy: 1 } } });

    it('uses the scheme and host the proxy forwarded, so links are https behind TLS', async () => {
      const { file } = await uploadWith(env(), FORWARDED);
      expect(file).toMatch(/^https:\/\/daohuu\.example\/uploads\//);
    });

    it('falls back to the request when the forwarded host is not a host name', async () => {
      const { file } = await uploadWith(env(), {
        'x-forwarded-proto': 'javascript',
        'x-forwarded-host': 'evil.example/path?',
      });
      expect(file?.startsWith(`${env().server.baseURL}/uploads/`)).toBe(true);
    });
  });

  describe('with a configured public URL', () => {
    const env = useContractEnv({
      config: { uploads: { dir }, http: { publicBaseURL: 'https://chat.daohuu.example/chat/' } },
    });

    it('uses it whatever the request says', async () => {
      const { file } = await uploadWith(env(), FORWARDED);
      expect(file).toMatch(/^https:\/\/chat\.daohuu\.example\/chat\/uploads\//);
    });
  });
});
