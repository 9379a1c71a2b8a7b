import { createHmac } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.ts';
import {
  chatApiKey,
  chatClient,
  chatToken,
  jwtClaims,
  listeningApp,
  storedChatCredentials,
} from './chat-harness.ts';
import type { ChatTokenResponse } from './chat-harness.ts';
import { apiRequest, signedUpUser } from './harness.ts';

const TTL_SECONDS = 2;

let app: FastifyInstance;
let config: Config;
let chatURL: string;
let apiKey: string;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, config, chatURL, close } = await listeningApp({
    CHAT_TOKEN_TTL_SECONDS: String(TTL_SECONDS),
  }));
  apiKey = await chatApiKey(app);
});
afterAll(async () => close());

/** Resolves once the wall clock has reached `epochMs`: the only way to see a real token expire. */
function clockReaches(epochMs: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, Math.max(0, epochMs - Date.now() + 5)));
}

describe('GET /api/chat/token', () => {
  it('answers 401 UNAUTHENTICATED without a session', async () => {
    const response = await apiRequest(app, 'GET', '/api/chat/token');
    expect(response.statusCode).toBe(401);
    expect(response.json().error.code).toBe('UNAUTHENTICATED');
  });

  it('mints a token for the session user, signed with the app secret, living CHAT_TOKEN_TTL_SECONDS', async () => {
    const { cookie } = await signedUpUser(app);
    const me = (await apiRequest(app, 'GET', '/api/me', { cookie })).json();
    const response = await apiRequest(app, 'GET', '/api/chat/token', { cookie });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const { token, userId, expiresAt }: ChatTokenResponse = response.json();
    expect(userId).toBe(me.id);

    const claims = jwtClaims(token);
    expect(claims.user_id).toBe(me.id);
    expect(Number(claims.exp) - Number(claims.iat)).toBe(TTL_SECONDS);
    expect(expiresAt).toBe(new Date(Number(claims.exp) * 1000).toISOString());

    const [header, payload, signature] = token.split('.');
    const expected = createHmac('sha256', storedChatCredentials(config.dataDir).apiSecret)
      .update(`${header}.${payload}`)
      .digest('base64url');
    expect(signature).toBe(expected);
  });

  it('gives a token the chat server refuses once it has expired (code 40)', async () => {
    const { cookie } = await signedUpUser(app);
    const { token, userId } = await chatToken(app, cookie);
    await clockReaches(Number(jwtClaims(token).exp) * 1000);
    const client = chatClient(apiKey, chatURL);
    await expect(client.connectUser({ id: userId }, token)).rejects.toMatchObject({
      message: expect.stringMatching(/code 40|expired/i),
    });
  });

  it('keeps a client with a tokenProvider working past the expiry of its first token', async () => {
    const { cookie } = await signedUpUser(app);
    const tokens: string[] = [];
    const tokenProvider = async () => {
      const { token } = await chatToken(app, cookie);
      tokens.push(token);
      return token;
    };
    const first = await chatToken(app, cookie);
    const client = chatClient(apiKey, chatURL);
    await client.connectUser({ id: first.userId }, tokenProvider);
    expect(tokens).toHaveLength(1);
    const channel = client.channel('sect', 'quang-truong');
    await channel.watch();

    await clockReaches(Number(jwtClaims(tokens[0] ?? '').exp) * 1000);
    // The first call after expiry is refused with code 40; the client fetches a new token and retries.
    const { message } = await channel.sendMessage({ text: 'Vẫn còn đây sau khi token hết hạn.' });
    expect(message.user?.id).toBe(first.userId);
    expect(tokens.length).toBeGreaterThanOrEqual(2);
    expect(Number(jwtClaims(tokens.at(-1) ?? '').exp)).toBeGreaterThan(
      Number(jwtClaims(tokens[0] ?? '').exp),
    );
  });
});
