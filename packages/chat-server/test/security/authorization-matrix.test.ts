import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  permissionsFor,
  ownCapabilities,
  type Actor,
  type MembershipFacts,
} from '../../src/chat/core/access/access.ts';
import {
  BUILTIN_CHANNEL_TYPES,
  CLIENT_CAPABILITIES,
  type ChannelType,
  type Permission,
} from '../../src/chat/core/channel-types.ts';
import {
  createUsers,
  signJwt,
  uniqueId,
  useContractEnv,
  type ContractEnv,
} from '../contract/helpers.ts';

/*
 * The authorization matrix: every role × channel type × action, with the expected answer generated from the
 * permission table (channel-types.ts, through the same `permissionsFor` the server uses) and the actual answer
 * taken from the running server over HTTP. A route that forgets its check, or checks the wrong permission, shows
 * up as a cell where the two disagree.
 */

type RoleName =
  | 'anonymous'
  | 'guest'
  | 'user'
  | 'channel_member'
  | 'channel_moderator'
  | 'owner'
  | 'moderator'
  | 'admin'
  | 'server';

const ROLES: readonly RoleName[] = [
  'anonymous',
  'guest',
  'user',
  'channel_member',
  'channel_moderator',
  'owner',
  'moderator',
  'admin',
  'server',
];

const MEMBER_ROLES = new Set<RoleName>(['channel_member', 'channel_moderator', 'owner']);

/** Standing in a channel (member-rules.ts): owner above channel moderators above members, staff above all. */
const RANK: Record<RoleName, number> = {
  anonymous: 0,
  guest: 0,
  user: 0,
  channel_member: 0,
  channel_moderator: 1,
  owner: 2,
  moderator: 3,
  admin: 4,
  server: 5,
};

/** The actor and membership the permission table sees for each role of the matrix. */
function tableView(role: RoleName): { actor: Actor; membership: MembershipFacts | null } {
  const actor = (global: string, isServer = false): Actor => ({
    appId: 'matrix',
    userId: role === 'anonymous' ? null : role,
    role: global,
    isServer,
    connectionId: null,
  });
  switch (role) {
    case 'anonymous':
    case 'guest':
    case 'user':
    case 'moderator':
    case 'admin':
      return { actor: actor(role), membership: null };
    case 'server':
      return { actor: actor('admin', true), membership: null };
    case 'owner':
      return { actor: actor('user'), membership: { channelRole: 'owner', banned: false } };
    default:
      return { actor: actor('user'), membership: { channelRole: role, banned: false } };
  }
}

/** What one cell expects: allowed, refused for lack of permission, or refused because the type turns it off. */
type Expectation = 'allowed' | 'forbidden' | 'disabled';

interface Cell {
  env: ContractEnv;
  type: string;
  id: string;
  role: RoleName;
  /** The user the role acts as (the server acts for `owner` where a user is needed). */
  userId: string | null;
  owner: string;
  /** Messages by a plain member, one per action that changes or removes a message. */
  seeds: Record<'edit' | 'pin' | 'remove' | 'react' | 'flag' | 'reply' | 'quote', string>;
  newcomer: string;
}

interface Action {
  name: string;
  /** The capability or permission the table grants it by. */
  permission: Permission;
  /** Only for members (leaving) or only for non-members (joining). */
  appliesTo?: (role: RoleName) => boolean;
  /** Besides the permission, a rank in the channel above this role (giving the role to someone added). */
  outranks?: 'channel_moderator';
  run(cell: Cell): Promise<Response>;
}

interface Answer {
  status: number;
  code?: number;
  body: string;
}

function url(cell: Cell, path: string, query: Record<string, string> = {}): URL {
  const target = new URL(`${cell.env.server.baseURL}${path}`);
  target.searchParams.set('api_key', cell.env.server.apiKey);
  if (cell.userId) target.searchParams.set('user_id', cell.userId);
  for (const [key, value] of Object.entries(query)) target.searchParams.set(key, value);
  return target;
}

function authHeaders(cell: Cell): Record<string, string> {
  if (cell.role === 'anonymous') return { 'stream-auth-type': 'anonymous' };
  const token =
    cell.role === 'server'
      ? signJwt({ server: true }, cell.env.server.apiSecret)
      : cell.env.admin.createToken(cell.userId!);
  return { 'stream-auth-type': 'jwt', Authorization: token };
}

function call(
  cell: Cell,
  method: string,
  path: string,
  body?: object,
  query?: Record<string, string>,
): Promise<Response> {
  return fetch(url(cell, path, query), {
    method,
    headers: {
      ...authHeaders(cell),
      'x-client-request-id': randomUUID(),
      ...(body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
}

/** Server-side calls name their user in the body, as the server-side client does. */
function asUser(cell: Cell): { user_id?: string } {
  return cell.role === 'server' ? { user_id: cell.owner } : {};
}

const base = (cell: Cell) => `/channels/${cell.type}/${cell.id}`;

const ACTIONS: readonly Action[] = [
  {
    name: 'read the channel',
    permission: 'read-channel',
    run: (cell) => call(cell, 'POST', `${base(cell)}/query`, { state: true }),
  },
  {
    name: 'send a message',
    permission: 'send-message',
    run: (cell) =>
      call(cell, 'POST', `${base(cell)}/message`, {
        message: { id: randomUUID(), text: 'Đạo hữu an khang', ...asUser(cell) },
      }),
  },
  {
    name: 'send a system message',
    permission: 'create-system-message',
    run: (cell) =>
      call(cell, 'POST', `${base(cell)}/message`, {
        message: { id: randomUUID(), type: 'system', text: 'Thông báo', ...asUser(cell) },
      }),
  },
  {
    name: 'send a message with restricted visibility',
    permission: 'create-restricted-visibility-message',
    run: (cell) =>
      call(cell, 'POST', `${base(cell)}/message`, {
        message: {
          id: randomUUID(),
          text: 'Chỉ chủ nhân được xem',
          restricted_visibility: [cell.owner],
          ...asUser(cell),
        },
      }),
  },
  {
    name: 'reply in a thread',
    permission: 'send-reply',
    run: (cell) =>
      call(cell, 'POST', `${base(cell)}/message`, {
        message: {
          id: randomUUID(),
          text: 'Xin hỏi thêm',
          parent_id: cell.seeds.reply,
          ...asUser(cell),
        },
      }),
  },
  {
    name: 'quote a message',
    permission: 'quote-message',
    run: (cell) =>
      call(cell, 'POST', `${base(cell)}/message`, {
        message: {
          id: randomUUID(),
          text: 'Như lời đạo hữu',
          quoted_message_id: cell.seeds.quote,
          ...asUser(cell),
        },
      }),
  },
  {
    name: 'react to a message',
    permission: 'send-reaction',
    run: (cell) =>
      call(cell, 'POST', `/messages/${cell.seeds.react}/reaction`, {
        reaction: { type: 'like', ...asUser(cell) },
        ...asUser(cell),
      }),
  },
  {
    name: 'send a custom event',
    permission: 'send-custom-events',
    run: (cell) =>
      call(cell, 'POST', `${base(cell)}/event`, {
        event: { type: 'tu-luyen.bat-dau', ...asUser(cell) },
        ...asUser(cell),
      }),
  },
  {
    name: 'send a typing event',
    permission: 'send-typing-events',
    run: (cell) =>
      call(cell, 'POST', `${base(cell)}/event`, {
        event: { type: 'typing.start', ...asUser(cell) },
        ...asUser(cell),
      }),
  },
  {
    name: 'upload a file',
    permission: 'upload-file',
    run: (cell) => {
      const form = new FormData();
      form.append('file', new Blob(['bí kíp tu luyện'], { type: 'text/plain' }), 'bi-kip.txt');
      if (cell.role === 'server') form.append('user', JSON.stringify({ id: cell.owner }));
      return fetch(url(cell, `${base(cell)}/file`), {
        method: 'POST',
        headers: { ...authHeaders(cell), 'x-client-request-id': randomUUID() },
        body: form,
      });
    },
  },
  {
    name: 'flag a message',
    permission: 'flag-message',
    run: (cell) =>
      call(cell, 'POST', '/moderation/flag', {
        target_message_id: cell.seeds.flag,
        ...asUser(cell),
      }),
  },
  {
    name: 'edit a message someone else wrote',
    permission: 'update-any-message',
    run: (cell) =>
      call(cell, 'POST', `/messages/${cell.seeds.edit}`, {
        message: { text: 'Đã sửa bởi người khác', ...asUser(cell) },
      }),
  },
  {
    name: 'pin a message',
    permission: 'pin-message',
    run: (cell) =>
      call(cell, 'PUT', `/messages/${cell.seeds.pin}`, { set: { pinned: true }, ...asUser(cell) }),
  },
  {
    name: 'delete a message someone else wrote',
    permission: 'delete-any-message',
    run: (cell) => call(cell, 'DELETE', `/messages/${cell.seeds.remove}`),
  },
  {
    name: 'update the channel',
    permission: 'update-channel',
    run: (cell) =>
      call(cell, 'PATCH', base(cell), { set: { loi_dan: 'Tu tâm dưỡng tính' }, ...asUser(cell) }),
  },
  {
    name: 'turn on slow mode',
    permission: 'set-channel-cooldown',
    run: (cell) => call(cell, 'POST', base(cell), { cooldown: 0, ...asUser(cell) }),
  },
  {
    name: 'add a member',
    permission: 'update-channel-members',
    run: (cell) =>
      call(cell, 'POST', base(cell), { add_members: [cell.newcomer], ...asUser(cell) }),
  },
  {
    name: 'add a member with their history hidden before an instant',
    permission: 'update-channel-members',
    run: (cell) =>
      call(cell, 'POST', base(cell), {
        add_members: [cell.newcomer],
        hide_history_before: new Date().toISOString(),
        ...asUser(cell),
      }),
  },
  {
    name: 'add a member as channel moderator',
    permission: 'update-channel-members',
    outranks: 'channel_moderator',
    run: (cell) =>
      call(cell, 'POST', base(cell), {
        add_members: [{ user_id: cell.newcomer, channel_role: 'channel_moderator' }],
        ...asUser(cell),
      }),
  },
  {
    name: 'join the channel',
    permission: 'join-channel',
    appliesTo: (role) => !MEMBER_ROLES.has(role) && role !== 'anonymous' && role !== 'server',
    run: (cell) => call(cell, 'POST', base(cell), { add_members: [cell.userId] }),
  },
  {
    name: 'ban a user from the channel',
    permission: 'ban-channel-members',
    run: (cell) =>
      call(cell, 'POST', '/moderation/ban', {
        target_user_id: cell.newcomer,
        type: cell.type,
        id: cell.id,
        reason: 'ma trận',
      }),
  },
  {
    name: 'list the bans of the channel',
    permission: 'ban-channel-members',
    run: (cell) =>
      call(cell, 'GET', '/query_banned_users', undefined, {
        payload: JSON.stringify({ filter_conditions: { channel_cid: `${cell.type}:${cell.id}` } }),
      }),
  },
  {
    name: 'lift a ban in the channel',
    permission: 'ban-channel-members',
    run: (cell) =>
      call(cell, 'DELETE', '/moderation/ban', undefined, {
        target_user_id: cell.newcomer,
        type: cell.type,
        id: cell.id,
      }),
  },
  {
    name: 'freeze the channel',
    permission: 'freeze-channel',
    run: (cell) => call(cell, 'PATCH', base(cell), { set: { frozen: true }, ...asUser(cell) }),
  },
  {
    name: 'leave the channel',
    permission: 'leave-channel',
    appliesTo: (role) => MEMBER_ROLES.has(role),
    run: (cell) => call(cell, 'POST', base(cell), { remove_members: [cell.userId] }),
  },
  {
    name: 'delete the channel',
    permission: 'delete-channel',
    run: (cell) => call(cell, 'DELETE', base(cell)),
  },
  {
    name: 'create a channel',
    permission: 'create-channel',
    run: (cell) =>
      call(cell, 'POST', `/channels/${cell.type}/${uniqueId('moi')}/query`, {
        data: {
          ...(cell.role === 'server' ? { created_by_id: cell.owner } : {}),
          ...(cell.userId && cell.role !== 'server' ? { members: [cell.userId] } : {}),
        },
      }),
  },
];

function expectation(type: ChannelType, role: RoleName, permission: Permission): Expectation {
  const isCapability = (CLIENT_CAPABILITIES as readonly string[]).includes(permission);
  // Switched off by the type's config (typing in livestream, uploads in gaming): refused whoever asks.
  if (isCapability && ownCapabilities(new Set([permission]), type.config).length === 0)
    return 'disabled';
  const { actor, membership } = tableView(role);
  const permissions = permissionsFor(type, actor, membership);
  // Whoever may add members may add themselves.
  if (permission === 'join-channel' && permissions.has('update-channel-members')) return 'allowed';
  return permissions.has(permission) ? 'allowed' : 'forbidden';
}

function verdict(answer: Answer): Expectation | 'unexpected' {
  if (answer.status >= 200 && answer.status < 300) return 'allowed';
  if (answer.status === 403 && answer.code === 17) return 'forbidden';
  return 'unexpected';
}

function matches(expected: Expectation, answer: Answer): boolean {
  if (expected === 'allowed') return answer.status >= 200 && answer.status < 300;
  if (expected === 'forbidden') return answer.status === 403 && answer.code === 17;
  // Switched off by the type: any clean refusal (not allowed, bad input, feature not supported).
  return answer.status >= 400 && answer.status < 500 && [4, 17, 19].includes(answer.code ?? -1);
}

async function answerOf(response: Response): Promise<Answer> {
  const body = await response.text();
  let code: number | undefined;
  try {
    code = (JSON.parse(body) as { code?: number }).code;
  } catch {
    code = undefined;
  }
  return { status: response.status, code, body: body.slice(0, 200) };
}

interface Cast {
  owner: string;
  author: string;
  member: string;
  channelModerator: string;
  guest: string;
  user: string;
  moderator: string;
  admin: string;
}

function actingUser(cast: Cast, role: RoleName): string | null {
  switch (role) {
    case 'anonymous':
      return null;
    case 'server':
      return null;
    case 'guest':
      return cast.guest;
    case 'user':
      return cast.user;
    case 'channel_member':
      return cast.member;
    case 'channel_moderator':
      return cast.channelModerator;
    case 'owner':
      return cast.owner;
    case 'moderator':
      return cast.moderator;
    case 'admin':
      return cast.admin;
  }
}

async function prepareCell(
  env: ContractEnv,
  cast: Cast,
  type: string,
  role: RoleName,
): Promise<Cell> {
  const id = uniqueId(`ma-tran-${role.replace('_', '-')}`);
  const channel = env.admin.channel(type, id, {
    created_by_id: cast.owner,
    members: [cast.owner, cast.author, cast.member, cast.channelModerator],
  });
  await channel.create();
  await channel.addModerators([cast.channelModerator]);
  const seeds = {} as Cell['seeds'];
  for (const key of ['edit', 'pin', 'remove', 'react', 'flag', 'reply', 'quote'] as const) {
    const { message } = await channel.sendMessage({
      text: `Hạt giống ${key}`,
      user_id: cast.author,
    });
    seeds[key] = message.id;
  }
  const newcomer = uniqueId('tan-nhan');
  await createUsers(env, [newcomer]);
  return {
    env,
    type,
    id,
    role,
    userId: actingUser(cast, role),
    owner: cast.owner,
    seeds,
    newcomer,
  };
}

describe('the authorization matrix: role × channel type × action, against the permission table', () => {
  // Guests on, so the guest row shows what the table grants a guest rather than the blanket refusal of guests off.
  const env = useContractEnv({
    config: {
      apps: [{ key: `matrix-${randomUUID()}`, secret: randomUUID(), guests: { enabled: true } }],
    },
  });
  let cast: Cast;
  let cells = 0;

  beforeAll(async () => {
    cast = {
      owner: uniqueId('chu'),
      author: uniqueId('tac-gia'),
      member: uniqueId('de-tu'),
      channelModerator: uniqueId('truong-lao'),
      guest: uniqueId('khach'),
      user: uniqueId('tan-tu'),
      moderator: uniqueId('ho-phap'),
      admin: uniqueId('chuong-mon'),
    };
    await createUsers(env(), [
      cast.owner,
      cast.author,
      cast.member,
      cast.channelModerator,
      cast.user,
      { id: cast.guest, name: cast.guest, role: 'guest' },
      { id: cast.moderator, name: cast.moderator, role: 'moderator' },
      { id: cast.admin, name: cast.admin, role: 'admin' },
    ]);
    return () => {
      console.info(`authorization matrix: ${cells} cells checked`);
    };
  });

  for (const type of Object.values(BUILTIN_CHANNEL_TYPES)) {
    describe(`${type.name} channels`, () => {
      it.each(ROLES)('a %s gets exactly what the table grants it', async (role) => {
        const cell = await prepareCell(env(), cast, type.name, role);
        const mismatches: string[] = [];
        for (const action of ACTIONS) {
          if (action.appliesTo && !action.appliesTo(role)) continue;
          let expected = expectation(type, role, action.permission);
          if (expected === 'allowed' && action.outranks && RANK[role] <= RANK[action.outranks])
            expected = 'forbidden';
          const answer = await answerOf(await action.run(cell));
          cells += 1;
          if (!matches(expected, answer)) {
            mismatches.push(
              `${action.name}: expected ${expected}, got ${verdict(answer)} (${answer.status} ${answer.body})`,
            );
          }
        }
        expect(mismatches).toEqual([]);
      });
    });
  }
});

/** App configuration routes: only the app secret (a server-side call) may use them, every user role gets code 17. */
describe('the authorization matrix: channel-type routes are server-side only', () => {
  const env = useContractEnv();
  const someone = uniqueId('tan-tu');
  const routes: { name: string; run: (cell: Cell) => Promise<Response> }[] = [
    { name: 'GET /channeltypes', run: (cell) => call(cell, 'GET', '/channeltypes') },
    { name: 'GET /channeltypes/{name}', run: (cell) => call(cell, 'GET', '/channeltypes/team') },
    {
      name: 'POST /channeltypes',
      run: (cell) => call(cell, 'POST', '/channeltypes', { name: uniqueId('loai').toLowerCase() }),
    },
    {
      name: 'PUT /channeltypes/{name}',
      run: (cell) => call(cell, 'PUT', '/channeltypes/team', { max_message_length: 5000 }),
    },
    {
      name: 'DELETE /channeltypes/{name}',
      run: async (cell) => {
        const name = uniqueId('xoa').toLowerCase();
        await cell.env.admin.createChannelType({ name });
        return call(cell, 'DELETE', `/channeltypes/${name}`);
      },
    },
  ];

  beforeAll(async () => {
    await createUsers(env(), [
      someone,
      { id: `${someone}-g`, name: 'g', role: 'guest' },
      { id: `${someone}-m`, name: 'm', role: 'moderator' },
      { id: `${someone}-a`, name: 'a', role: 'admin' },
    ]);
  });

  const callers: [RoleName, string | null][] = [
    ['anonymous', null],
    ['guest', `${someone}-g`],
    ['user', someone],
    ['moderator', `${someone}-m`],
    ['admin', `${someone}-a`],
    ['server', null],
  ];
  it.each(callers)('a %s gets exactly what the table grants it', async (role, userId) => {
    const cell = { env: env(), role, userId } as Cell;
    const expected: Expectation = role === 'server' ? 'allowed' : 'forbidden';
    const mismatches: string[] = [];
    for (const route of routes) {
      const answer = await answerOf(await route.run(cell));
      if (!matches(expected, answer))
        mismatches.push(`${route.name}: expected ${expected}, got ${answer.status} ${answer.body}`);
    }
    expect(mismatches).toEqual([]);
  });
});

/*
 * App-level moderation routes (no channel): the review queue is for moderators, admins and the server; block lists
 * are server-side only, as on Stream. Every role of the matrix that exists outside a channel is asked each route.
 */
type AppRole = 'anonymous' | 'guest' | 'user' | 'moderator' | 'admin' | 'server';
const APP_ROLES: readonly AppRole[] = [
  'anonymous',
  'guest',
  'user',
  'moderator',
  'admin',
  'server',
];
const MODERATORS: ReadonlySet<AppRole> = new Set(['moderator', 'admin', 'server']);
const SERVER_ONLY: ReadonlySet<AppRole> = new Set(['server']);
/** Our own notification routes: a signed-in user's own notifications, or the server's for the user it names. */
const SIGNED_IN: ReadonlySet<AppRole> = new Set(['user', 'moderator', 'admin', 'server']);
/** Everyone with a credential, guests included. */
const NOT_ANONYMOUS: ReadonlySet<AppRole> = new Set([
  'guest',
  'user',
  'moderator',
  'admin',
  'server',
]);
/** User groups are read by every signed-in user (the composer's `@` autocomplete), guests included. */
const GROUP_READERS = NOT_ANONYMOUS;
const ownerQuery = (cell: Cell) => (cell.role === 'server' ? { user_id: cell.owner } : undefined);

interface AppAction {
  name: string;
  allowed: ReadonlySet<AppRole>;
  run(cell: Cell): Promise<Response>;
}

const APP_ACTIONS: readonly AppAction[] = [
  {
    // Anyone may report deliveries; only a member's delivery of a message they see is announced, and the answer is
    // the same either way (delivery-receipts.test.ts checks who is heard).
    name: 'mark channels delivered (POST /channels/delivered)',
    allowed: NOT_ANONYMOUS,
    run: (cell) =>
      call(
        cell,
        'POST',
        '/channels/delivered',
        { latest_delivered_messages: [{ cid: `${cell.type}:${cell.id}`, id: cell.seeds.flag }] },
        ownerQuery(cell),
      ),
  },
  {
    // A client's bulk delete answers each channel's outcome with its own rights (batch-deletes.test.ts); the server's
    // becomes a task. No channel of this name exists, so nothing is deleted.
    name: 'delete channels in bulk (POST /channels/delete)',
    allowed: NOT_ANONYMOUS,
    run: (cell) =>
      call(cell, 'POST', '/channels/delete', { cids: [`messaging:${uniqueId('khong-co')}`] }),
  },
  {
    name: 'query the review queue',
    allowed: MODERATORS,
    run: (cell) => call(cell, 'POST', '/api/v2/moderation/review_queue', { filter: {} }),
  },
  {
    name: 'submit a review action',
    allowed: MODERATORS,
    run: async (cell) => {
      const flagged = await cell.env.admin.flagMessage(cell.seeds.flag, { user_id: cell.owner });
      return call(cell, 'POST', '/api/v2/moderation/submit_action', {
        action_type: 'mark_reviewed',
        item_id: flagged.review_queue_item_id,
      });
    },
  },
  {
    name: 'query message flags',
    allowed: MODERATORS,
    run: (cell) =>
      call(cell, 'GET', '/moderation/flags/message', undefined, {
        payload: JSON.stringify({ filter_conditions: {} }),
      }),
  },
  {
    name: 'send a custom event to a user',
    allowed: SERVER_ONLY,
    run: (cell) =>
      call(cell, 'POST', `/users/${encodeURIComponent(cell.owner)}/event`, {
        event: { type: 'loi_moi_ket_ban', text: 'Kết bạn nhé' },
      }),
  },
  {
    name: 'create a block list',
    allowed: SERVER_ONLY,
    run: (cell) => call(cell, 'POST', '/blocklists', { name: uniqueId('bl'), words: ['đm'] }),
  },
  {
    name: 'list block lists',
    allowed: SERVER_ONLY,
    run: (cell) => call(cell, 'GET', '/blocklists'),
  },
  {
    name: 'read a block list',
    allowed: SERVER_ONLY,
    run: (cell) => call(cell, 'GET', `/blocklists/${cell.id}`),
  },
  {
    name: 'update a block list',
    allowed: SERVER_ONLY,
    run: (cell) => call(cell, 'PUT', `/blocklists/${cell.id}`, { words: ['vãi'] }),
  },
  {
    name: 'delete a block list',
    allowed: SERVER_ONLY,
    run: (cell) => call(cell, 'DELETE', `/blocklists/${cell.id}`),
  },
  ...userGroupActions(),
  ...predefinedFilterActions(),
  {
    name: "read many users' unread counts (POST /unread_batch)",
    allowed: SERVER_ONLY,
    run: (cell) => call(cell, 'POST', '/unread_batch', { user_ids: [cell.owner] }),
  },
  {
    name: 'list own notifications (GET /daohuu/notifications)',
    allowed: SIGNED_IN,
    run: (cell) => call(cell, 'GET', '/daohuu/notifications', undefined, ownerQuery(cell)),
  },
  {
    name: 'mark own notifications read (POST /daohuu/notifications/read)',
    allowed: SIGNED_IN,
    run: (cell) => call(cell, 'POST', '/daohuu/notifications/read', { all: true, ...asUser(cell) }),
  },
  {
    name: 'create a notification for a user (POST /daohuu/notifications, server-side only)',
    allowed: SERVER_ONLY,
    run: (cell) =>
      call(cell, 'POST', '/daohuu/notifications', { user_id: cell.owner, kind: 'breakthrough' }),
  },
];

/**
 * Stream's user groups (the cell's id names a group the server made for it): reads for signed-in users, creating for
 * users who are not guests; changing a group the server made, for app staff and the server (its creator and admins
 * too, which user-groups.test.ts checks).
 */
function userGroupActions(): AppAction[] {
  const group = (cell: Cell) => `/usergroups/${cell.id}`;
  return [
    {
      name: 'create a user group (POST /usergroups)',
      allowed: SIGNED_IN,
      run: (cell) => call(cell, 'POST', '/usergroups', { name: 'Trưởng lão đoàn' }),
    },
    {
      name: 'list user groups (GET /usergroups)',
      allowed: GROUP_READERS,
      run: (cell) => call(cell, 'GET', '/usergroups'),
    },
    {
      name: 'search user groups (GET /usergroups/search)',
      allowed: GROUP_READERS,
      run: (cell) => call(cell, 'GET', '/usergroups/search', undefined, { query: 'tr' }),
    },
    {
      name: 'read a user group (GET /usergroups/:id)',
      allowed: GROUP_READERS,
      run: (cell) => call(cell, 'GET', group(cell)),
    },
    {
      name: 'update a user group (PUT /usergroups/:id)',
      allowed: MODERATORS,
      run: (cell) => call(cell, 'PUT', group(cell), { name: 'Hộ pháp đoàn' }),
    },
    {
      name: 'add user group members (POST /usergroups/:id/members)',
      allowed: MODERATORS,
      run: (cell) => call(cell, 'POST', `${group(cell)}/members`, { member_ids: [cell.owner] }),
    },
    {
      name: 'remove user group members (POST /usergroups/:id/members/delete)',
      allowed: MODERATORS,
      run: (cell) =>
        call(cell, 'POST', `${group(cell)}/members/delete`, { member_ids: [cell.owner] }),
    },
    {
      name: 'delete a user group (DELETE /usergroups/:id)',
      allowed: MODERATORS,
      run: (cell) => call(cell, 'DELETE', group(cell)),
    },
  ];
}

/** Stream's predefined filters, server-side only (the cell's id names a filter made for it). */
function predefinedFilterActions(): AppAction[] {
  const filter = (cell: Cell) => `/predefined_filters/${cell.id}`;
  const body = { operation: 'QueryChannels', filter: { type: 'messaging' } };
  return [
    {
      name: 'create a predefined filter (POST /predefined_filters)',
      allowed: SERVER_ONLY,
      run: (cell) => call(cell, 'POST', '/predefined_filters', { ...body, name: uniqueId('pf') }),
    },
    {
      name: 'list predefined filters (GET /predefined_filters)',
      allowed: SERVER_ONLY,
      run: (cell) => call(cell, 'GET', '/predefined_filters'),
    },
    {
      name: 'read a predefined filter (GET /predefined_filters/:name)',
      allowed: SERVER_ONLY,
      run: (cell) => call(cell, 'GET', filter(cell)),
    },
    {
      name: 'update a predefined filter (PUT /predefined_filters/:name)',
      allowed: SERVER_ONLY,
      run: (cell) => call(cell, 'PUT', filter(cell), body),
    },
    {
      name: 'delete a predefined filter (DELETE /predefined_filters/:name)',
      allowed: SERVER_ONLY,
      run: (cell) => call(cell, 'DELETE', filter(cell)),
    },
  ];
}

describe('the authorization matrix: app-level moderation routes × role', () => {
  const env = useContractEnv({
    config: {
      apps: [
        { key: `matrix-app-${randomUUID()}`, secret: randomUUID(), guests: { enabled: true } },
      ],
    },
  });
  let cast: Cast;

  beforeAll(async () => {
    cast = {
      owner: uniqueId('chu'),
      author: uniqueId('tac-gia'),
      member: uniqueId('de-tu'),
      channelModerator: uniqueId('truong-lao'),
      guest: uniqueId('khach'),
      user: uniqueId('tan-tu'),
      moderator: uniqueId('ho-phap'),
      admin: uniqueId('chuong-mon'),
    };
    await createUsers(env(), [
      cast.owner,
      cast.author,
      cast.member,
      cast.channelModerator,
      cast.user,
      { id: cast.guest, name: cast.guest, role: 'guest' },
      { id: cast.moderator, name: cast.moderator, role: 'moderator' },
      { id: cast.admin, name: cast.admin, role: 'admin' },
    ]);
  });

  it.each(APP_ROLES)('a %s reaches exactly the moderation routes meant for it', async (role) => {
    const cell = await prepareCell(env(), cast, 'messaging', role);
    // A block list named after the cell, for the read, update and delete rows.
    await env().admin.createBlockList({ name: cell.id, words: ['đm'] });
    // And a user group and a predefined filter of that name.
    await env().admin.createUserGroup({ id: cell.id, name: cell.id });
    await env().admin.createPredefinedFilter({
      name: cell.id,
      operation: 'QueryChannels',
      filter: { type: 'messaging' },
    });
    const mismatches: string[] = [];
    for (const action of APP_ACTIONS) {
      const expected: Expectation = action.allowed.has(role) ? 'allowed' : 'forbidden';
      const answer = await answerOf(await action.run(cell));
      if (!matches(expected, answer))
        mismatches.push(
          `${action.name}: expected ${expected}, got ${verdict(answer)} (${answer.status} ${answer.body})`,
        );
    }
    expect(mismatches).toEqual([]);
  });
});

/** Segments and campaigns (server-side only); the ids are the cell's, so the server's answer may be its own 404. */
const CAMPAIGN_ROUTES: readonly { route: string; run(cell: Cell): Promise<Response> }[] = [
  { route: 'POST /segments', run: (cell) => call(cell, 'POST', '/segments', { type: 'user' }) },
  { route: 'POST /segments/query', run: (cell) => call(cell, 'POST', '/segments/query', {}) },
  { route: 'GET /segments/:id', run: (cell) => call(cell, 'GET', `/segments/${cell.id}`) },
  { route: 'PUT /segments/:id', run: (cell) => call(cell, 'PUT', `/segments/${cell.id}`, {}) },
  { route: 'DELETE /segments/:id', run: (cell) => call(cell, 'DELETE', `/segments/${cell.id}`) },
  {
    route: 'POST /segments/:id/addtargets',
    run: (cell) => call(cell, 'POST', `/segments/${cell.id}/addtargets`, { target_ids: ['a'] }),
  },
  {
    route: 'POST /segments/:id/deletetargets',
    run: (cell) => call(cell, 'POST', `/segments/${cell.id}/deletetargets`, { target_ids: ['a'] }),
  },
  {
    route: 'POST /segments/:id/targets/query',
    run: (cell) => call(cell, 'POST', `/segments/${cell.id}/targets/query`, {}),
  },
  {
    route: 'GET /segments/:id/target/:target',
    run: (cell) => call(cell, 'GET', `/segments/${cell.id}/target/${cell.newcomer}`),
  },
  {
    route: 'POST /campaigns',
    run: (cell) =>
      call(cell, 'POST', '/campaigns', {
        sender_id: cell.newcomer,
        user_ids: [cell.newcomer],
        message_template: { text: 'Chào' },
      }),
  },
  { route: 'POST /campaigns/query', run: (cell) => call(cell, 'POST', '/campaigns/query', {}) },
  { route: 'GET /campaigns/:id', run: (cell) => call(cell, 'GET', `/campaigns/${cell.id}`) },
  { route: 'PUT /campaigns/:id', run: (cell) => call(cell, 'PUT', `/campaigns/${cell.id}`, {}) },
  { route: 'DELETE /campaigns/:id', run: (cell) => call(cell, 'DELETE', `/campaigns/${cell.id}`) },
  {
    route: 'POST /campaigns/:id/start',
    run: (cell) => call(cell, 'POST', `/campaigns/${cell.id}/start`, {}),
  },
  {
    route: 'POST /campaigns/:id/stop',
    run: (cell) => call(cell, 'POST', `/campaigns/${cell.id}/stop`, {}),
  },
];

/** Routes only the server may call (Stream's server-side-only endpoints): every user role gets code 17. */
const SERVER_ONLY_ROUTES: readonly { route: string; run(cell: Cell): Promise<Response> }[] = [
  // POST /channels/delete is not here: a client may call it, deleting only the channels it may delete one by one
  // (batch-deletes.test.ts checks that), while the server's call becomes a task.
  {
    route: 'POST /users/delete',
    run: (cell) => call(cell, 'POST', '/users/delete', { user_ids: [cell.newcomer] }),
  },
  { route: 'DELETE /users/:id', run: (cell) => call(cell, 'DELETE', `/users/${cell.newcomer}`) },
  { route: 'GET /tasks/:id', run: (cell) => call(cell, 'GET', `/tasks/${randomUUID()}`) },
  {
    route: 'PUT /channels/batch',
    run: (cell) =>
      call(cell, 'PUT', '/channels/batch', {
        operation: 'updateData',
        filter: { cids: { $eq: `messaging:${uniqueId('khong-co')}` } },
        custom_set: { color: 'do' },
      }),
  },
  // Committing a pending message (extensions/pending-messages); the server's answer for an unknown id is 16.
  {
    route: 'POST /messages/:id/commit',
    run: (cell) => call(cell, 'POST', `/messages/${randomUUID()}/commit`),
  },
  ...CAMPAIGN_ROUTES,
];

describe('the authorization matrix: server-only routes × role', () => {
  const env = useContractEnv();

  it.each(ROLES)(
    'a %s may call the server-only routes exactly when it is the server',
    async (role) => {
      const cast = {
        owner: uniqueId('chu'),
        author: uniqueId('tac-gia'),
        member: uniqueId('de-tu'),
        channelModerator: uniqueId('truong-lao'),
        guest: uniqueId('khach'),
        user: uniqueId('tan-tu'),
        moderator: uniqueId('ho-phap'),
        admin: uniqueId('chuong-mon'),
      };
      await createUsers(env(), [
        cast.owner,
        cast.author,
        cast.member,
        cast.channelModerator,
        cast.user,
        { id: cast.guest, name: cast.guest, role: 'guest' },
        { id: cast.moderator, name: cast.moderator, role: 'moderator' },
        { id: cast.admin, name: cast.admin, role: 'admin' },
      ]);
      const cell = await prepareCell(env(), cast, 'messaging', role);
      const mismatches: string[] = [];
      for (const { route, run } of SERVER_ONLY_ROUTES) {
        const answer = await answerOf(await run(cell));
        // The server reaches the route; an unknown task id is its own 404, not a refusal.
        const ok =
          role === 'server'
            ? answer.status < 300 ||
              ((route === 'GET /tasks/:id' ||
                route === 'POST /messages/:id/commit' ||
                CAMPAIGN_ROUTES.some((r) => r.route === route)) &&
                answer.code === 16)
            : answer.status === 403 && answer.code === 17;
        if (!ok) mismatches.push(`${route}: ${answer.status} ${answer.body}`);
      }
      expect(mismatches).toEqual([]);
    },
  );
});

/*
 * GET /longpoll (the websocket fallback): every client role may open a connection of its own and poll or close only
 * that one (anyone else's id is unknown to it, code 46); a server token opens none, as on the websocket (code 5).
 */
describe('the authorization matrix: the long-poll transport × role', () => {
  const env = useContractEnv({
    config: {
      apps: [{ key: `lp-app-${randomUUID()}`, secret: randomUUID(), guests: { enabled: true } }],
      longPoll: { holdMs: 50 },
    },
  });
  const owner = uniqueId('lp-chu');
  let ownersConnection = '';

  /** Opens a long-poll connection as `cell`: the HTTP status, the error code if any, the connection id if any. */
  async function open(cell: Cell, userId: string | null) {
    const response = await call(cell, 'GET', '/longpoll', undefined, {
      json: JSON.stringify(userId ? { user_id: userId } : {}),
    });
    const body = (await response.json()) as { code?: number; event?: { connection_id: string } };
    return { status: response.status, code: body.code, id: body.event?.connection_id };
  }

  beforeAll(async () => {
    const opened = await open({ env: env(), role: 'user', userId: owner } as Cell, owner);
    ownersConnection = opened.id ?? '';
  });

  it.each(APP_ROLES)('a %s polls and closes only its own long-poll connection', async (role) => {
    const userId = role === 'anonymous' || role === 'server' ? null : uniqueId(`lp-${role}`);
    if (userId) await createUsers(env(), [{ id: userId, name: userId, role }]);
    const cell = { env: env(), role, userId } as Cell;
    const mismatches: string[] = [];
    const check = async (what: string, response: Response, status: number, code?: number) => {
      const answer = await answerOf(response);
      if (answer.status !== status || (code !== undefined && answer.code !== code))
        mismatches.push(
          `${what}: expected ${status}/${code ?? '-'}, got ${answer.status} ${answer.body}`,
        );
    };
    const opened = await open(cell, userId);
    if (role === 'server') {
      if (opened.status !== 401 || opened.code !== 5)
        mismatches.push(`open: expected 401/5, got ${opened.status}/${opened.code}`);
    } else if (!opened.id) {
      mismatches.push(`open: expected a connection, got ${opened.status}/${opened.code}`);
    } else {
      const own = { connection_id: opened.id };
      await check('poll its own', await call(cell, 'GET', '/longpoll', undefined, own), 200);
      await check(
        'close its own',
        await call(cell, 'GET', '/longpoll', undefined, { ...own, close: 'true' }),
        200,
      );
    }
    const others = { connection_id: ownersConnection };
    await check("poll another's", await call(cell, 'GET', '/longpoll', undefined, others), 400, 46);
    await check(
      "close another's",
      await call(cell, 'GET', '/longpoll', undefined, { ...others, close: 'true' }),
      400,
      46,
    );
    expect(mismatches).toEqual([]);
  });
});
