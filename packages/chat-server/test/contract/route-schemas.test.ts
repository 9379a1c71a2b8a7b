import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from '../../src/config.ts';
import { routeSchemasOf } from '../../src/http/route.ts';
import { buildChatServer } from '../../src/server.ts';
import {
  connectUser,
  createUsers,
  expectStreamErrorBody,
  rawRequest,
  sendText,
  uniqueId,
  useContractEnv,
  watchChannel,
} from './helpers.ts';
import type { RawRequest, RawResponse } from './helpers.ts';

/** Starts a chat server on a free port and returns every route it registered, as the plugin's onRoute sees them. */
async function registeredRoutes(): Promise<RouteOptions[]> {
  const dir = mkdtempSync(join(tmpdir(), 'chat-route-schemas-'));
  const routes: RouteOptions[] = [];
  const config = parseConfig({
    logLevel: 'silent',
    apps: [{ key: `key-${randomUUID()}`, secret: `secret-${randomUUID()}` }],
    db: { kind: 'sqlite', file: join(dir, 'chat.sqlite') },
    http: { host: '127.0.0.1', port: 0 },
    uploads: { dir: join(dir, 'files') },
  });
  const app = await buildChatServer(config, { onRoute: (route) => routes.push(route) });
  try {
    await app.listen({ host: '127.0.0.1', port: 0 });
  } finally {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return routes;
}

const methodsOf = (route: RouteOptions) => [route.method].flat();
const pathParams = (url: string) => [...url.matchAll(/:(\w+)/g)].map((match) => match[1]!).sort();
const shapeKeys = (schema: z.ZodType | undefined) =>
  schema instanceof z.ZodObject ? Object.keys(schema.shape).sort() : [];

/**
 * CORS preflights are not endpoints. The websocket upgrade is one: its query declares a schema like the rest, parsed
 * by realtime/handshake.ts, which answers a mismatch on the socket.
 */
function isEndpoint(route: RouteOptions): boolean {
  return !methodsOf(route).includes('OPTIONS');
}

describe('route schemas', { timeout: 30_000 }, () => {
  it('declares a schema for the params, query and body of every route the server registers, /connect included', async () => {
    const routes = (await registeredRoutes()).filter(isEndpoint);
    // Positive control: the enumeration reaches the feature routes, core and extensions alike.
    const names = routes.flatMap((route) => methodsOf(route).map((m) => `${m} ${route.url}`));
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /channels/:type/:id/message',
        'GET /users',
        'POST /polls',
        'DELETE /uploads/image',
        'GET /connect',
      ]),
    );
    expect(routes.length).toBeGreaterThan(60);

    const missing: string[] = [];
    for (const route of routes) {
      const name = `${methodsOf(route).join(',')} ${route.url}`;
      const schemas = routeSchemasOf(route);
      if (!schemas) {
        missing.push(`${name}: not declared with defineRoute`);
        continue;
      }
      if (JSON.stringify(shapeKeys(schemas.params)) !== JSON.stringify(pathParams(route.url)))
        missing.push(`${name}: params schema does not name exactly the path parameters`);
      if (!schemas.query && !schemas.payload) missing.push(`${name}: no query or payload schema`);
      const hasBody = methodsOf(route).some((m) => ['POST', 'PUT', 'PATCH'].includes(m));
      if (hasBody && !schemas.body && !schemas.multipart) missing.push(`${name}: no body schema`);
    }
    expect(missing).toEqual([]);
  });
});

describe('malformed input named by field', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  /** A member of a fresh channel holding one message. */
  async function seeded(prefix: string) {
    const userId = uniqueId(`${prefix}-u`);
    const client = await connectUser(env(), userId);
    const channelId = uniqueId(prefix);
    const channel = await watchChannel(client, 'messaging', channelId, { members: [userId] });
    const message = await sendText(channel, 'Đạo tâm kiên định');
    return { userId, channel, channelId, message };
  }

  async function expectNamed(request: RawRequest, message: string): Promise<RawResponse> {
    const response = await rawRequest(env(), request);
    expectStreamErrorBody(response, 4, 400);
    expect((response.body as { message: string }).message).toBe(message);
    return response;
  }

  it('names a nested message field of the wrong type and stores nothing', async () => {
    const { userId, channel, channelId } = await seeded('msg');
    await expectNamed(
      {
        method: 'POST',
        path: `/channels/messaging/${channelId}/message`,
        userId,
        body: { message: { id: randomUUID(), text: 'ok', mentioned_users: ['a', 7] } },
      },
      'message.mentioned_users[1] must be a string or an object',
    );
    const { messages } = await channel.query({ messages: { limit: 10 } });
    expect(messages.map((m) => m.text)).toEqual(['Đạo tâm kiên định']);
  });

  it('names a member entry of the wrong type when creating a channel', async () => {
    const userId = uniqueId('members');
    await createUsers(env(), [userId]);
    await expectNamed(
      {
        method: 'POST',
        path: `/channels/messaging/${uniqueId('ch')}/query`,
        userId,
        body: { data: { members: [userId, 42] } },
      },
      'data.members[1] must be a string or an object',
    );
  });

  it('names a missing required field', async () => {
    const { userId, message } = await seeded('react');
    await expectNamed(
      {
        method: 'POST',
        path: `/messages/${message.id}/reaction`,
        userId,
        body: { reaction: { score: 2 } },
      },
      'reaction.type is required',
    );
  });

  it('names a field of the ?payload= JSON of a GET endpoint', async () => {
    const userId = uniqueId('payload');
    await createUsers(env(), [userId]);
    await expectNamed(
      {
        method: 'GET',
        path: '/users',
        userId,
        query: { payload: JSON.stringify({ filter_conditions: {}, limit: 'mười' }) },
      },
      'limit must be a number',
    );
  });

  it('names a query-string value that is not a number', async () => {
    const { userId, message } = await seeded('qs');
    await expectNamed(
      { method: 'GET', path: `/messages/${message.id}/reactions`, userId, query: { limit: 'ten' } },
      'limit must be a number',
    );
  });

  it('names a query-string value that is not valid JSON', async () => {
    const { userId, message } = await seeded('sort');
    await expectNamed(
      { method: 'GET', path: `/threads/${message.id}`, userId, query: { sort: '[{"field"' } },
      'sort must be valid JSON',
    );
  });

  it('names an array entry deep inside a batch update', async () => {
    const userId = uniqueId('batch');
    await createUsers(env(), [userId]);
    await expectNamed(
      {
        method: 'PATCH',
        path: '/users',
        userId,
        body: { users: [{ id: userId, set: { name: 'Lâm Động' }, unset: ['nickname', 3] }] },
      },
      'users[0].unset[1] must be a string',
    );
  });

  it('refuses a body that is not a JSON object on an extension endpoint', async () => {
    const userId = uniqueId('mute');
    await createUsers(env(), [userId]);
    await expectNamed(
      { method: 'POST', path: '/moderation/mute', userId, body: '["target"]' },
      'the request body must be a JSON object',
    );
    await expectNamed(
      {
        method: 'POST',
        path: '/moderation/mute',
        userId,
        body: { target_id: uniqueId('other'), timeout: '5' },
      },
      'timeout must be a number',
    );
  });

  it('lets custom fields through on messages, next to typed ones', async () => {
    const { userId, channelId } = await seeded('custom');
    const response = await rawRequest(env(), {
      method: 'POST',
      path: `/channels/messaging/${channelId}/message`,
      userId,
      body: { message: { id: randomUUID(), text: 'Trúc Cơ', canh_gioi: { tang: 3 } } },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({
      message: { text: 'Trúc Cơ', canh_gioi: { tang: 3 } },
    });
  });
});
