import type { Event, EventTypes, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUsers,
  expectStreamErrorBody,
  rawRequest,
  readStreamError,
  uniqueId,
  useContractEnv,
  waitForEvent,
} from './helpers.ts';

/** POST /daohuu/notifications: the product server tells a user something of its own ("Đột phá!"). */

const PATH = '/daohuu/notifications';
const NEW = 'daohuu.notification.new' as EventTypes;

interface Notification {
  id: string;
  kind: string;
  cid: string | null;
  actor_id: string | null;
  read_at: string | null;
  data: Record<string, string>;
}

type Pushed = Event & { notification: Notification; unread_count: number };

function create(server: StreamChat, body: object) {
  return server.post<{ notification: Notification }>(`${server.baseURL}${PATH}`, body);
}

describe('notifications the product server creates', { timeout: 20_000 }, () => {
  const env = useContractEnv();

  it('stores a breakthrough notification with its data, pushes it live and lists it with the others', async () => {
    const [alice] = await connectUsers(env(), ['nc-create']);
    const pushed = waitForEvent(alice!.client, NEW);
    const { notification } = await create(env().admin, {
      user_id: alice!.id,
      kind: 'breakthrough',
      data: { realm: 'Kim Đan Sơ Kỳ' },
    });
    expect(notification).toMatchObject({
      kind: 'breakthrough',
      cid: null,
      actor_id: null,
      read_at: null,
      data: { realm: 'Kim Đan Sơ Kỳ' },
    });
    const event = (await pushed) as Pushed;
    expect(event.notification.id).toBe(notification.id);
    expect(event.unread_count).toBe(1);
    const page = await alice!.client.get<{ notifications: Notification[]; unread_count: number }>(
      `${alice!.client.baseURL}${PATH}`,
    );
    expect(page.notifications).toEqual([expect.objectContaining({ id: notification.id })]);
    expect(page.notifications[0]!.data).toEqual({ realm: 'Kim Đan Sơ Kỳ' });
  });

  it('gives activity notifications an empty data object', async () => {
    const [alice, bob] = await connectUsers(env(), ['nc-data-a', 'nc-data-b']);
    const channel = env().admin.channel('messaging', uniqueId('nc-data'), {
      members: [alice!.id, bob!.id],
      created_by_id: bob!.id,
    });
    await channel.create();
    const pushed = waitForEvent(alice!.client, NEW);
    await channel.sendMessage({ text: 'xem', user_id: bob!.id, mentioned_users: [alice!.id] });
    expect(((await pushed) as Pushed).notification).toMatchObject({ kind: 'mention', data: {} });
  });

  it('refuses user tokens with code 17, even for the user themselves', async () => {
    const [alice] = await connectUsers(env(), ['nc-create-user']);
    const response = await rawRequest(env(), {
      method: 'POST',
      path: PATH,
      userId: alice!.id,
      body: { user_id: alice!.id, kind: 'breakthrough', data: { realm: 'Tiên Nhân' } },
    });
    expectStreamErrorBody(response, 17, 403);
    const page = await alice!.client.get<{ notifications: Notification[] }>(
      `${alice!.client.baseURL}${PATH}`,
    );
    expect(page.notifications).toEqual([]);
  });

  it('answers an unknown user with code 16', async () => {
    const error = await create(env().admin, {
      user_id: uniqueId('nobody'),
      kind: 'breakthrough',
    }).catch((e: unknown) => e);
    expect(readStreamError(error).code).toBe(16);
  });

  it('answers bad input with code 4 naming the field', async () => {
    const [alice] = await connectUsers(env(), ['nc-create-bad']);
    const userId = alice!.id;
    const cases: [object, string][] = [
      [{ kind: 'breakthrough' }, 'user_id'],
      [{ user_id: userId }, 'kind'],
      // Activity kinds come from chat itself: the product may not forge a mention.
      [{ user_id: userId, kind: 'mention' }, 'kind'],
      [{ user_id: userId, kind: 'breakthrough', data: { realm: 5 } }, 'data'],
      [{ user_id: userId, kind: 'breakthrough', data: { realm: 'x'.repeat(201) } }, 'data'],
      [{ user_id: userId, kind: 'breakthrough', data: 'Kim Đan' }, 'data'],
    ];
    for (const [body, field] of cases) {
      const error = await create(env().admin, body).catch((e: unknown) => e);
      const parsed = readStreamError(error);
      expect(parsed.code, JSON.stringify(body)).toBe(4);
      expect(parsed.message, JSON.stringify(body)).toContain(field);
    }
  });
});
