import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WebSocket, type RawData } from 'ws';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  sendText,
  signJwt,
  uniqueId,
  useContractEnv,
  watchChannel,
} from '../contract/helpers.ts';
import type { ContractEnv } from '../contract/helpers.ts';
import type { ChatRoute } from '../../src/testing/harness.ts';

/*
 * Property-based fuzzing of every chat endpoint (read from the running server, so a route added later is fuzzed too)
 * and of the websocket. Seeded and bounded: CHAT_FUZZ_SEED reproduces a run, each test stops generating at its time
 * budget, and every request has its own deadline. docs/decisions/0005-fuzzing-fast-check.md explains the choices.
 */

const SEED = Number(process.env.CHAT_FUZZ_SEED ?? 20_261_125);
/** Cases per endpoint and identity, before the time budget cuts in. */
const RUNS_PER_ROUTE = 6;
/** A request that takes longer than this counts as a hang. */
const REQUEST_DEADLINE_MS = 5_000;
const SOCKET_DEADLINE_MS = 3_000;

console.info(`chat fuzz seed ${SEED} (set CHAT_FUZZ_SEED=${SEED} to reproduce)`);

// ---------- arbitraries ----------

const nest = (depth: number, open: string, close: string, leaf: string) =>
  `${open.repeat(depth)}${leaf}${close.repeat(depth)}`;

/**
 * JSON texts no real client sends: deep, wide, huge, prototype keys, numbers out of range. Each is just past the cap
 * it tests (docs/errors.md) rather than far past it, so a case stays small enough to send quickly; the named attacks
 * with 5,000 levels and 40,000 values are in malformed-input.test.ts.
 */
const NASTY_JSON = [
  nest(1000, '{"a":', '}', '1'),
  nest(1000, '[', ']', ''),
  nest(1000, '{"$and":[', ']}', '{"id":"x"}'),
  nest(12, '{"$or":[', ']}', '{"id":"x"}'),
  JSON.stringify({ $in: Array.from({ length: 1500 }, (_, i) => `id-${i}`) }),
  JSON.stringify({ $in: Array.from({ length: 1000 }, (_, i) => `id-${i}`) }),
  JSON.stringify({ $or: Array.from({ length: 150 }, (_, i) => ({ id: `id-${i}` })) }),
  JSON.stringify(Array.from({ length: 1500 }, (_, i) => i)),
  JSON.stringify(Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i]))),
  JSON.stringify('đ'.repeat(6000)),
  JSON.stringify('%_'.repeat(3000)),
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  '{"prototype":1}',
  '1e308',
  '-1e308',
  '-1',
  '-0',
  '1.5',
  '2147483648',
  '9007199254740993',
  '99999999999999999999999',
  '"1e30"',
  '"NaN"',
  '"+020000-01-01T00:00:00Z"',
  '"-000001-01-01T00:00:00Z"',
  'null',
  'true',
  '""',
  '[]',
  '{}',
];

/** Keys nearly every list or write endpoint reads: drawn as often as all the others together. */
const HOT_KEYS = [
  'sort',
  'filter_conditions',
  'filter',
  'limit',
  'offset',
  'next',
  'message',
  'data',
  'set',
];

/** Keys our endpoints read, so random bodies reach past the first type check. */
const KNOWN_KEYS = [
  'message',
  'messages',
  'text',
  'id',
  'parent_id',
  'user',
  'user_id',
  'users',
  'filter_conditions',
  'filter',
  'message_filter_conditions',
  'query',
  'sort',
  'limit',
  'offset',
  'next',
  'prev',
  'data',
  'set',
  'unset',
  'reaction',
  'type',
  'score',
  'event',
  'members',
  'add_members',
  'remove_members',
  'add_moderators',
  'target_id',
  'target_ids',
  'timeout',
  'expiration',
  'name',
  'options',
  'option_id',
  'vote',
  'answer_text',
  'max_votes_allowed',
  'position',
  'pinned',
  'pin_expires',
  'remind_at',
  'shared_location',
  'latitude',
  'longitude',
  'end_at',
  'cooldown',
  'hide_history',
  'hard',
  'state',
  'watch',
  'presence',
  'watchers',
  'member_limit',
  'message_limit',
  'created_by_id',
  'role',
  'channel_cid',
  'message_id',
  'cids',
  'attachments',
  'mentioned_users',
  'reason',
  'custom',
  'image_upload_config',
  'file_upload_config',
  'id_around',
  'id_lt',
  'created_at_around',
];

/** Strings for ids and path segments: the fixture's real ids plus ids that are wrong in every way. */
function idArbitrary(realIds: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...realIds) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        '..',
        '%00',
        'a'.repeat(300),
        'đạo-hữu',
        '1e308',
        '-1',
        'messaging:x',
        '*',
        ' ',
      ),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 40 }) },
  );
}

interface Fixture {
  /** Ids worth aiming at: the attacker's own and the victim's. */
  ids: string[];
  /** The same ids by the kind of path parameter they fit, so a case reaches past the "not found" check. */
  byParam: Record<
    'type' | 'channel' | 'message' | 'poll' | 'option' | 'user' | 'reaction',
    string[]
  >;
  attackerId: string;
}

/** Which fixture ids fit the path parameter `name` of a route under `url`. */
function idsForParam(fixture: Fixture, url: string, name: string): string[] {
  const { byParam } = fixture;
  if (name === ':type') return url.includes('/reaction/') ? byParam.reaction : byParam.type;
  if (name === ':userId') return byParam.user;
  if (name === ':optionId') return byParam.option;
  if (name === ':pollId') return byParam.poll;
  if (name === ':id' && url.startsWith('/channels/')) return byParam.channel;
  if (name === ':id' && url.startsWith('/polls/')) return byParam.poll;
  if (name === ':id') return [...byParam.message, ...byParam.poll];
  return fixture.ids;
}

const valueText = (fixture: Fixture): fc.Arbitrary<string> =>
  fc.oneof(
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 3, arbitrary: fc.constantFrom(...NASTY_JSON) },
    { weight: 2, arbitrary: idArbitrary(fixture.ids).map((id) => JSON.stringify(id)) },
    {
      weight: 1,
      arbitrary: fc
        .array(idArbitrary(fixture.ids), { maxLength: 4 })
        .map((ids) => JSON.stringify(ids)),
    },
  );

/** Numbers where our endpoints expect a small integer (limits, offsets, scores, durations…). */
const NUMBERISH_JSON = [
  '1e308',
  '1e30',
  '-1',
  '1.5',
  '2147483648',
  '9007199254740993',
  '"25"',
  '"NaN"',
  '0',
  '10',
];
const NUMBER_KEYS = new Set([
  'limit',
  'offset',
  'member_limit',
  'message_limit',
  'score',
  'position',
  'timeout',
  'expiration',
  'cooldown',
  'max_votes_allowed',
  'latitude',
  'longitude',
]);
const DATE_KEYS = new Set(['pin_expires', 'remind_at', 'end_at', 'created_at_around']);
const FILTER_KEYS = new Set(['filter_conditions', 'filter', 'message_filter_conditions']);
const SORT_FIELDS = [
  '__proto__',
  'constructor',
  'prototype',
  'created_at',
  'name',
  'last_message_at',
  'a"b',
  '',
];

/** A sort in every shape the server accepts, naming fields that exist, prototype keys and garbage. */
const sortText: fc.Arbitrary<string> = fc
  .array(
    fc.oneof(
      fc.record({
        field: fc.oneof(fc.constantFrom(...SORT_FIELDS), fc.string({ maxLength: 8 })),
        direction: fc.constantFrom<unknown>(1, -1, 2, '-1', 'x'),
      }),
      fc
        .tuple(fc.constantFrom(...SORT_FIELDS), fc.constantFrom(1, -1, 0))
        .map(([field, direction]) => Object.fromEntries([[field, direction]])),
    ),
    { maxLength: 12 },
  )
  .map((items) => JSON.stringify(items));

/** A filter mixing real fields, operators and nasty values. */
function filterText(fixture: Fixture): fc.Arbitrary<string> {
  const field = fc.constantFrom(
    'id',
    'members',
    'name',
    'type',
    'cid',
    'member_count',
    'created_at',
    'text',
    '__proto__',
    'x.y',
  );
  const operator = fc.constantFrom(
    '$eq',
    '$in',
    '$nin',
    '$gt',
    '$autocomplete',
    '$q',
    '$exists',
    '$regex',
    '$and',
    '$or',
  );
  return fc
    .array(fc.tuple(field, operator, valueText(fixture)), { maxLength: 4 })
    .map(
      (conditions) =>
        `{${conditions.map(([f, op, v]) => `${JSON.stringify(f)}:{${JSON.stringify(op)}:${v}}`).join(',')}}`,
    );
}

/** A value for `key`: mostly the kind of value that key takes, wrong in some way; sometimes anything. */
function valueFor(
  key: string,
  fixture: Fixture,
  anything: fc.Arbitrary<string>,
): fc.Arbitrary<string> {
  let typed: fc.Arbitrary<string> | undefined;
  if (NUMBER_KEYS.has(key)) typed = fc.constantFrom(...NUMBERISH_JSON);
  else if (DATE_KEYS.has(key))
    typed = fc.constantFrom(
      '"+020000-01-01T00:00:00Z"',
      '"-000001-01-01T00:00:00Z"',
      '"hôm qua"',
      '8.64e15',
      '1e308',
    );
  else if (key === 'sort') typed = sortText;
  else if (FILTER_KEYS.has(key)) typed = filterText(fixture);
  if (!typed) return anything;
  return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 1, arbitrary: anything });
}

/** A JSON object text over our known keys, nested a little, with nasty values anywhere. */
function objectText(fixture: Fixture): fc.Arbitrary<string> {
  const { tree } = fc.letrec<{ tree: string }>((tie) => {
    const anything = fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      valueText(fixture),
      tie('tree'),
    );
    const entry = fc.oneof(
      {
        weight: 5,
        arbitrary: fc
          .oneof(
            { weight: 1, arbitrary: fc.constantFrom(...KNOWN_KEYS) },
            { weight: 1, arbitrary: fc.constantFrom(...HOT_KEYS) },
          )
          .chain((key) => valueFor(key, fixture, anything).map((value) => [key, value] as const)),
      },
      { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 12 }), anything) },
    );
    return {
      tree: fc
        .array(entry, { maxLength: 6 })
        .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`),
    };
  });
  return tree;
}

interface FuzzBody {
  text: string | undefined;
  contentType: string | undefined;
}

function bodyArbitrary(fixture: Fixture): fc.Arbitrary<FuzzBody> {
  const text = fc.oneof(
    { weight: 6, arbitrary: objectText(fixture) },
    { weight: 2, arbitrary: valueText(fixture) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', '{"message":', '{oops}', '\u0000', 'a=1&b=2', '<xml/>'),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 50 }) },
  );
  const contentType = fc.oneof(
    { weight: 8, arbitrary: fc.constant('application/json') },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'multipart/form-data; boundary=----x',
        'application/json; charset=latin1',
        'application/vnd.api+json',
        'image/png',
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant({ text: undefined, contentType: undefined }) },
    { weight: 5, arbitrary: fc.record({ text, contentType }) },
  );
}

/** Query parameters: the ones our endpoints read (payload, sort, limit, offset…) with bad values, plus noise. */
function queryArbitrary(fixture: Fixture): fc.Arbitrary<[string, string][]> {
  const numberish = fc.constantFrom(
    '1e30',
    '1e308',
    '-1',
    'NaN',
    '1.5',
    '99999999999999999999',
    '0x10',
    '',
    '25',
    '0',
  );
  const payload = fc.oneof(objectText(fixture), valueText(fixture), fc.string({ maxLength: 20 }));
  const pair = fc.oneof(
    { weight: 3, arbitrary: fc.tuple(fc.constant('payload'), payload) },
    { weight: 2, arbitrary: fc.tuple(fc.constant('sort'), fc.oneof(sortText, valueText(fixture))) },
    {
      weight: 3,
      arbitrary: fc.tuple(fc.constantFrom('limit', 'offset', 'id_lt', 'id_around'), numberish),
    },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom('url', 'user_id', 'connection_id', 'type', 'next'),
        idArbitrary(fixture.ids),
      ),
    },
    { weight: 1, arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.string({ maxLength: 20 })) },
    // A query string far beyond Node's header limit: refused by the HTTP parser itself.
    {
      weight: 1,
      arbitrary: fc.constant<[string, string]>([
        'payload',
        JSON.stringify({ x: 'q'.repeat(20_000) }),
      ]),
    },
  );
  return fc.array(pair, { maxLength: 4 });
}

// ---------- requests and the invariant ----------

type Identity = 'user' | 'anonymous' | 'server';

interface FuzzCase {
  path: string;
  query: [string, string][];
  body: FuzzBody;
  headers: [string, string][];
  apiKey: 'valid' | 'missing' | 'wrong';
}

function caseArbitrary(route: ChatRoute, fixture: Fixture): fc.Arbitrary<FuzzCase> {
  // CORS preflights are registered as `*`: any path.
  const segments = (route.url.startsWith('/') ? route.url : `/${route.url}`).split('/');
  const parts = segments.map((segment) =>
    segment.startsWith(':') || segment === '*'
      ? fc.oneof(
          {
            weight: 8,
            arbitrary: fc.constantFrom(...idsForParam(fixture, route.url, segment)),
          },
          { weight: 4, arbitrary: idArbitrary(fixture.ids).map(encodeURIComponent) },
          // Percent-encoding that does not decode to UTF-8.
          { weight: 1, arbitrary: fc.constantFrom('%E0%A4%A', '%', '%zz') },
        )
      : fc.constant(segment),
  );
  const headerPair = fc.oneof(
    fc.tuple(fc.constant('authorization'), fc.constantFrom('Bearer x', 'a.b.c', 'x'.repeat(2000))),
    fc.tuple(fc.constant('stream-auth-type'), fc.constantFrom('jwt', 'anonymous', 'server', '')),
    fc.tuple(fc.constant('x-stream-client'), fc.string({ maxLength: 30 })),
    fc.tuple(
      fc.constant('range'),
      fc.constantFrom('bytes=0-', 'bytes=-1', 'bytes=99999999999999999999-', 'x'),
    ),
    fc.tuple(fc.constant('x-forwarded-for'), fc.constantFrom('127.0.0.1', '::1', 'garbage')),
  );
  return fc.record({
    path: fc.tuple(...parts).map((p) => p.join('/')),
    query: queryArbitrary(fixture),
    body: bodyArbitrary(fixture),
    headers: fc.oneof(
      { weight: 4, arbitrary: fc.constant<[string, string][]>([]) },
      { weight: 1, arbitrary: fc.array(headerPair, { maxLength: 2 }) },
    ),
    apiKey: fc.oneof(
      { weight: 10, arbitrary: fc.constant('valid' as const) },
      { weight: 1, arbitrary: fc.constantFrom('missing' as const, 'wrong' as const) },
    ),
  });
}

interface Answer {
  status: number;
  body: unknown;
  text: string;
}

async function send(
  env: ContractEnv,
  identity: Identity,
  fixture: Fixture,
  method: string,
  fuzz: FuzzCase,
): Promise<Answer> {
  const url = new URL(`${env.server.baseURL}${fuzz.path}`);
  if (fuzz.apiKey === 'valid') url.searchParams.set('api_key', env.server.apiKey);
  if (fuzz.apiKey === 'wrong') url.searchParams.set('api_key', 'khong-phai-khoa');
  if (identity === 'user') url.searchParams.set('user_id', fixture.attackerId);
  for (const [key, value] of fuzz.query) url.searchParams.append(key, value);
  const headers: Record<string, string> = {
    'stream-auth-type': identity === 'anonymous' ? 'anonymous' : 'jwt',
  };
  if (identity === 'user') headers.authorization = env.admin.createToken(fixture.attackerId);
  if (identity === 'server') headers.authorization = serverToken(env);
  for (const [key, value] of fuzz.headers) headers[key] = value;
  const withBody = method !== 'GET' && method !== 'HEAD' && fuzz.body.text !== undefined;
  if (withBody && fuzz.body.contentType) headers['content-type'] = fuzz.body.contentType;
  const response = await fetch(url, {
    method,
    headers,
    body: withBody ? fuzz.body.text : undefined,
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: the invariant below reports it if it was an error
  }
  return { status: response.status, body, text };
}

/** The token a server-side client sends (`{server: true}` signed with the app secret). */
function serverToken(env: ContractEnv): string {
  return signJwt({ server: true }, env.server.apiSecret);
}

/** 2xx, or a 4xx in Stream's error JSON with the status repeated inside: never a 5xx. */
function assertAnswer(method: string, answer: Answer): void {
  if (answer.status >= 200 && answer.status < 300) return;
  if (answer.status === 304) return;
  expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(400);
  expect(answer.status, answer.text.slice(0, 300)).toBeLessThan(500);
  if (method === 'HEAD') return;
  expect(answer.body, answer.text.slice(0, 300)).toEqual({
    code: expect.any(Number),
    message: expect.any(String),
    StatusCode: answer.status,
    duration: expect.any(String),
    more_info: expect.any(String),
    details: expect.any(Array),
  });
}

// ---------- fixtures ----------

/**
 * A victim with a members-only channel, messages, a reply, a reaction, a pin, a poll and custom data; an attacker
 * with a channel of their own. `snapshot()` reads the victim's data back server-side.
 */
async function setUp(env: ContractEnv) {
  const victimId = uniqueId('nan-nhan');
  const attackerId = uniqueId('ke-tan-cong');
  const victim = await connectUser(env, victimId, {
    user: { name: 'Nạn Nhân', mon_phai: 'Thanh Vân' } as never,
  });
  const secret = uniqueId('mat-that');
  const channel = await watchChannel(victim, 'messaging', secret, {
    members: [victimId],
    name: 'Mật Thất',
    kho_bau: 9,
  } as never);
  const message = await sendText(channel, 'Bí kíp');
  const reply = await sendText(channel, 'Chú giải', { parent_id: message.id });
  await channel.sendReaction(message.id, { type: 'like' });
  await victim.pinMessage(message.id);
  const { poll } = await victim.createPoll({ name: 'Bầu trưởng lão', options: [{ text: 'A' }] });
  await createUsers(env, [attackerId]);
  const own = uniqueId('cua-ke-tan-cong');
  await createChannelAsServer(env, 'messaging', own, attackerId, {
    members: [attackerId],
  } as never);
  const ownMessage = await env.admin
    .channel('messaging', own)
    .sendMessage({ id: randomUUID(), text: 'của ta', user_id: attackerId });
  await victim.disconnectUser();
  env.clients.delete(victim);

  const snapshot = async () => {
    const state = await env.admin
      .channel('messaging', secret)
      .query({ messages: { limit: 100 }, members: { limit: 100 } });
    const replies = await env.admin.channel('messaging', secret).getReplies(message.id, {});
    const { users } = await env.admin.queryUsers({ id: victimId });
    const { poll: storedPoll } = await env.admin.getPoll(poll.id);
    const pick = (m: {
      id: string;
      text?: string;
      updated_at?: string;
      reaction_counts?: unknown;
      pinned?: boolean;
      deleted_at?: string;
    }) => ({
      id: m.id,
      text: m.text,
      updated_at: m.updated_at,
      reaction_counts: m.reaction_counts,
      pinned: m.pinned,
      deleted_at: m.deleted_at,
    });
    return {
      channel: {
        name: state.channel.name,
        updated_at: state.channel.updated_at,
        frozen: state.channel.frozen,
        kho_bau: (state.channel as unknown as Record<string, unknown>).kho_bau,
      },
      members: state.members.map((m) => [m.user_id, m.channel_role]),
      messages: state.messages.map(pick),
      replies: replies.messages.map(pick),
      user: users.map((u) => [
        u.name,
        u.role,
        u.updated_at,
        (u as unknown as Record<string, unknown>).mon_phai,
      ]),
      poll: [
        storedPoll.name,
        storedPoll.updated_at,
        storedPoll.vote_count,
        storedPoll.options.length,
      ],
    };
  };
  const fixture: Fixture = {
    attackerId,
    byParam: {
      type: ['messaging', 'livestream'],
      // The attacker's own first: the fixed cases below use the first id, and these get past permission checks.
      channel: [own, secret],
      message: [ownMessage.message.id, message.id, reply.id],
      poll: [poll.id],
      option: [poll.options[0]!.id],
      user: [attackerId, victimId],
      reaction: ['like'],
    },
    ids: [
      'messaging',
      'livestream',
      secret,
      own,
      message.id,
      reply.id,
      ownMessage.message.id,
      poll.id,
      poll.options[0]!.id,
      victimId,
      attackerId,
      'like',
      `messaging:${secret}`,
    ],
  };
  return { fixture, snapshot };
}

// ---------- the fuzz loops ----------

interface Tally {
  cases: number;
}

const FORGED_CURSORS = [
  Buffer.from(JSON.stringify({ offset: 1e30 })).toString('base64url'),
  Buffer.from(JSON.stringify({ o: 1e30 })).toString('base64url'),
  Buffer.from('1e30').toString('base64url'),
];

/**
 * Fixed cases every route gets before the random ones (fast-check `examples`), one per kind of attack the review
 * found, aimed with real ids: a random draw rarely lines up a real id, the right key and the wrong value at once.
 */
function fixedCases(route: ChatRoute, fixture: Fixture): FuzzCase[] {
  const path = (route.url.startsWith('/') ? route.url : `/${route.url}`)
    .split('/')
    .map((segment) =>
      segment.startsWith(':') || segment === '*'
        ? encodeURIComponent(idsForParam(fixture, route.url, segment)[0]!)
        : segment,
    )
    .join('/');
  const json = (body: object) => ({ text: JSON.stringify(body), contentType: 'application/json' });
  const protoSort = [{ field: '__proto__', direction: 1 }];
  const attacks: { query: Record<string, string>; body: object }[] = [
    {
      query: {
        sort: JSON.stringify([{ field: 'constructor', direction: 1 }]),
        payload: JSON.stringify({ filter_conditions: { id: 'x' }, sort: protoSort }),
      },
      body: { filter_conditions: {}, filter: {}, sort: protoSort, data: {}, state: true },
    },
    {
      query: {
        limit: '1e30',
        offset: '1e30',
        payload: JSON.stringify({ filter_conditions: { id: 'x' }, limit: 1e30, offset: 1e30 }),
      },
      body: {
        limit: 1e30,
        offset: 1e30,
        messages: { limit: 1e30, offset: 1e30 },
        members: { limit: 1e30, offset: 1e30 },
        reaction: { type: 'like', score: 1e30 },
        option: { text: 'x', position: 1e30 },
        filter_conditions: { member_count: { $gt: 1e308 } },
      },
    },
    {
      query: { next: FORGED_CURSORS[0]!, payload: JSON.stringify({ next: FORGED_CURSORS[2] }) },
      body: {
        next: FORGED_CURSORS[2],
        prev: FORGED_CURSORS[1],
        timeout: 1e300,
        expiration: 1e300,
        remind_at: '+020000-01-01T00:00:00Z',
        end_at: '+020000-01-01T00:00:00Z',
        message: {
          id: randomUUID(),
          text: 'x',
          pinned: true,
          pin_expires: '+020000-01-01T00:00:00Z',
        },
        set: { pinned: true, pin_expires: '+020000-01-01T00:00:00Z' },
      },
    },
    {
      query: { payload: `{"filter_conditions":${nest(1000, '{"$and":[', ']}', '{"id":"x"}')}}` },
      body: {
        filter_conditions: { $or: Array.from({ length: 150 }, (_, i) => ({ id: `x-${i}` })) },
        filter: {
          $or: ['a', 'b', 'c'].map((list) => ({
            id: { $in: Array.from({ length: list === 'c' ? 1 : 1000 }, (_, i) => `${list}-${i}`) },
          })),
        },
        message: { id: randomUUID(), text: 'x', x: JSON.parse(nest(200, '{"a":', '}', '1')) },
        data: { x: JSON.parse(nest(200, '[', ']', '')) },
      },
    },
  ];
  return attacks.map(({ query, body }) => ({
    path,
    query: Object.entries(query),
    body:
      route.method === 'GET' || route.method === 'HEAD'
        ? { text: undefined, contentType: undefined }
        : json(body),
    headers: [],
    apiKey: 'valid',
  }));
}

/**
 * Every route gets its fixed cases (when `fixed`), then RUNS_PER_ROUTE random cases with its own derived seed; once
 * `budgetMs` is spent, the remaining routes get one random case each, so every endpoint is always fuzzed and a slow
 * machine only shortens the run.
 */
async function fuzzRoutes(
  env: ContractEnv,
  identity: Identity,
  fixture: Fixture,
  { budgetMs, fixed }: { budgetMs: number; fixed: boolean },
  tally: Tally,
): Promise<void> {
  // /connect included: a plain GET without the upgrade must answer like any endpoint.
  const routes = env.server.routes;
  expect(routes.length).toBeGreaterThan(50);
  const deadline = Date.now() + budgetMs;
  for (const [index, route] of routes.entries()) {
    // HEAD mirrors GET and OPTIONS is the CORS preflight: random cases are enough for them.
    const examples =
      fixed && route.method !== 'HEAD' && route.method !== 'OPTIONS'
        ? fixedCases(route, fixture).map((fuzz): [FuzzCase] => [fuzz])
        : [];
    await fc.assert(
      fc.asyncProperty(caseArbitrary(route, fixture), async (fuzz) => {
        tally.cases += 1;
        assertAnswer(route.method, await send(env, identity, fixture, route.method, fuzz));
      }),
      {
        seed: SEED + index,
        numRuns: examples.length + (Date.now() < deadline ? RUNS_PER_ROUTE : 1),
        examples,
        endOnFailure: true,
      },
    );
  }
}

async function expectStillServing(env: ContractEnv): Promise<void> {
  const response = await fetch(`${env.server.baseURL}/hi?api_key=${env.server.apiKey}`, {
    headers: { authorization: serverToken(env), 'stream-auth-type': 'jwt' },
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  });
  expect(response.status).toBe(200);
  const someone = await connectUser(env, uniqueId('van-on'));
  const channel = await watchChannel(someone, 'messaging', uniqueId('van-on'), {
    members: [someone.userID!],
  } as never);
  expect((await sendText(channel, 'Vẫn ổn')).text).toBe('Vẫn ổn');
}

// ---------- websocket ----------

function openSocket(env: ContractEnv, query: Record<string, string>): WebSocket {
  const url = new URL(`${env.server.baseURL.replace(/^http/, 'ws')}/connect`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return new WebSocket(url);
}

function handshakeQuery(env: ContractEnv, userId: string): Record<string, string> {
  return {
    api_key: env.server.apiKey,
    authorization: env.admin.createToken(userId),
    'stream-auth-type': 'jwt',
    json: JSON.stringify({ user_id: userId, user_details: { id: userId } }),
  };
}

type SocketOutcome =
  | { kind: 'frame'; frame: Record<string, unknown> }
  | { kind: 'closed'; code: number }
  | { kind: 'http'; status: number };

/**
 * The next JSON frame matching `accept`, the close, or an HTTP answer to the upgrade; rejects (a hang) after
 * SOCKET_DEADLINE_MS.
 */
function nextOutcome(
  socket: WebSocket,
  accept: (frame: Record<string, unknown>) => boolean,
): Promise<SocketOutcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error('the socket neither answered nor closed'));
    }, SOCKET_DEADLINE_MS);
    const onMessage = (data: RawData) => {
      const frame = JSON.parse(String(data)) as Record<string, unknown>;
      if (!accept(frame)) return;
      cleanup();
      resolve({ kind: 'frame', frame });
    };
    const onClose = (code: number) => {
      cleanup();
      resolve({ kind: 'closed', code });
    };
    const onUnexpected = (_request: unknown, response: { statusCode?: number }) => {
      cleanup();
      resolve({ kind: 'http', status: response.statusCode ?? 0 });
    };
    function cleanup() {
      clearTimeout(timer);
      socket.off('message', onMessage);
      socket.off('close', onClose);
      socket.off('unexpected-response', onUnexpected);
    }
    socket.on('message', onMessage);
    socket.on('close', onClose);
    socket.on('unexpected-response', onUnexpected);
    socket.on('error', () => undefined);
  });
}

const frameArbitrary = (fixture: Fixture): fc.Arbitrary<string | Buffer> =>
  fc.oneof(
    { weight: 3, arbitrary: objectText(fixture) },
    { weight: 2, arbitrary: valueText(fixture) },
    {
      weight: 2,
      arbitrary: fc
        .array(
          fc.record({
            type: fc.constantFrom(
              'health.check',
              'typing.start',
              'message.new',
              'user.watching.start',
              '',
            ),
            cid: idArbitrary(fixture.ids),
          }),
          { maxLength: 3 },
        )
        .map((events) => JSON.stringify(events)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
    // Over the 64 KiB frame limit: the server must close the socket, cleanly.
    { weight: 1, arbitrary: fc.constant('x'.repeat(70 * 1024)) },
  );

const CLEAN_CLOSE_CODES = [1000, 1001, 1008, 1009, 1011, 1012];

describe('fuzzing every chat endpoint and websocket frame', { timeout: 60_000 }, () => {
  const env = useContractEnv({ config: { linkPreview: { timeoutMs: 300 } } });

  it('as a user, every endpoint answers 2xx or Stream error JSON and leaves others’ data alone', async () => {
    const { fixture, snapshot } = await setUp(env());
    const before = await snapshot();
    const tally = { cases: 0 };

    await fuzzRoutes(env(), 'user', fixture, { budgetMs: 3_000, fixed: true }, tally);

    console.info(
      `chat fuzz: ${tally.cases} cases as a user over ${env().server.routes.length} routes`,
    );
    expect(await snapshot()).toEqual(before);
    await expectStillServing(env());
  });

  it('as anonymous, every endpoint answers 2xx or Stream error JSON and leaves stored data alone', async () => {
    const { fixture, snapshot } = await setUp(env());
    const before = await snapshot();
    const tally = { cases: 0 };

    await fuzzRoutes(env(), 'anonymous', fixture, { budgetMs: 2_000, fixed: false }, tally);

    console.info(`chat fuzz: ${tally.cases} cases as anonymous`);
    expect(await snapshot()).toEqual(before);
    await expectStillServing(env());
  });

  it('with a server token, every endpoint answers 2xx or Stream error JSON', async () => {
    const { fixture } = await setUp(env());
    const tally = { cases: 0 };

    await fuzzRoutes(env(), 'server', fixture, { budgetMs: 3_000, fixed: false }, tally);

    console.info(`chat fuzz: ${tally.cases} cases with a server token`);
    await expectStillServing(env());
  });

  it('random websocket frames leave the socket answering health checks, or close it cleanly', async () => {
    const { fixture, snapshot } = await setUp(env());
    const before = await snapshot();
    let socket: WebSocket | undefined;
    let cases = 0;
    const connect = async () => {
      socket = openSocket(env(), handshakeQuery(env(), fixture.attackerId));
      const first = await nextOutcome(socket, (f) => f.type === 'health.check');
      expect(first.kind).toBe('frame');
    };
    try {
      await fc.assert(
        fc.asyncProperty(frameArbitrary(fixture), async (frame) => {
          cases += 1;
          if (!socket || socket.readyState !== WebSocket.OPEN) await connect();
          socket!.send(frame);
          socket!.send(JSON.stringify([{ type: 'health.check', client_id: 'fuzz' }]));
          const outcome = await nextOutcome(
            socket!,
            (f) => f.type === 'health.check' && f.me === undefined,
          );
          expect(outcome.kind).not.toBe('http');
          if (outcome.kind === 'closed') expect(CLEAN_CLOSE_CODES).toContain(outcome.code);
        }),
        {
          seed: SEED,
          numRuns: 150,
          interruptAfterTimeLimit: 3_000,
          markInterruptAsFailure: false,
          endOnFailure: true,
        },
      );
    } finally {
      socket?.terminate();
    }

    console.info(`chat fuzz: ${cases} websocket frames`);
    expect(await snapshot()).toEqual(before);
    await expectStillServing(env());
  });

  it('random handshakes get a health.check or an error frame, never a hang or an HTTP error', async () => {
    const { fixture } = await setUp(env());
    let cases = 0;
    const query = fc.record(
      {
        api_key: fc.constantFrom(env().server.apiKey, '', 'sai'),
        authorization: fc.oneof(
          fc.constant(env().admin.createToken(fixture.attackerId)),
          fc.constantFrom('', 'a.b.c', serverToken(env())),
        ),
        'stream-auth-type': fc.constantFrom('jwt', 'anonymous', 'server', ''),
        json: fc.oneof(
          objectText(fixture),
          fc.constantFrom(
            nest(1000, '{"a":', '}', '1'),
            '{"user_details":{"__proto__":{"polluted":1}}}',
            `{"user_id":"${fixture.attackerId}","user_details":{"id":"${fixture.attackerId}","x":${nest(40, '[', ']', '')}}}`,
            'không phải json',
          ),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(query, async (params) => {
        cases += 1;
        const socket = openSocket(env(), params as Record<string, string>);
        try {
          const urlLength = socket.url.length;
          const outcome = await nextOutcome(
            socket,
            (f) => f.type === 'health.check' || 'error' in f,
          );
          if (outcome.kind === 'frame' && 'error' in outcome.frame) {
            const error = outcome.frame.error as { StatusCode: number; code: number };
            expect(error.StatusCode).toBeLessThan(500);
            expect(error.code).not.toBe(-1);
          }
          if (outcome.kind === 'closed') expect(CLEAN_CLOSE_CODES).toContain(outcome.code);
          // Only Node's HTTP parser answers before the socket exists: a request line and headers over its 16 KiB
          // limit (the upgrade's own headers take some of it).
          if (outcome.kind === 'http') {
            expect(urlLength).toBeGreaterThan(15 * 1024);
            expect(outcome.status).toBe(400);
          }
        } finally {
          socket.terminate();
        }
      }),
      {
        seed: SEED,
        numRuns: 60,
        interruptAfterTimeLimit: 3_000,
        markInterruptAsFailure: false,
        endOnFailure: true,
      },
    );

    console.info(`chat fuzz: ${cases} websocket handshakes`);
    await expectStillServing(env());
  });
});
