import type { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import {
  connectUser,
  expectStreamError,
  expectStreamErrorBody,
  rawRequest,
  signJwt,
  uniqueId,
  useContractEnv,
  watchChannel,
  type ContractEnv,
} from './helpers.ts';

const template = {
  type: 'messaging',
  members: { $in: ['{{user_id}}'] },
  phai: '{{phai}}',
};

/** Three channels of one sect (`phai`) with `userId` as member, created one after another, and one of another. */
async function sectChannels(env: ContractEnv, user: StreamChat, phai: string) {
  const cids: string[] = [];
  for (let i = 0; i < 3; i++) {
    const channel = await watchChannel(user, 'messaging', uniqueId('dong-phu'), {
      members: [user.userID!],
      phai,
    } as Record<string, unknown>);
    cids.push(channel.cid);
  }
  await watchChannel(user, 'messaging', uniqueId('khac-phai'), {
    members: [user.userID!],
    phai: `${phai}-khac`,
  } as Record<string, unknown>);
  return cids;
}

describe('predefined filters', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('creates, reads, updates and deletes a filter server-side with Stream’s shapes', async () => {
    const admin = env().admin;
    const name = uniqueId('kenh-cua-toi');
    const created = await admin.createPredefinedFilter({
      name,
      operation: 'QueryChannels',
      filter: template,
      description: 'Kênh của tôi trong phái',
      sort: [{ field: 'last_message_at', direction: -1 }],
    });
    expect(created.predefined_filter).toEqual({
      name,
      operation: 'QueryChannels',
      filter: template,
      description: 'Kênh của tôi trong phái',
      sort: [{ field: 'last_message_at', direction: -1 }],
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect((await admin.getPredefinedFilter(name)).predefined_filter).toEqual(
      created.predefined_filter,
    );
    const updated = await admin.updatePredefinedFilter(name, {
      operation: 'QueryChannels',
      filter: { type: 'messaging' },
    });
    expect(updated.predefined_filter).toMatchObject({ name, filter: { type: 'messaging' } });
    expect(updated.predefined_filter.sort).toBeUndefined();
    expect(updated.predefined_filter.description).toBeUndefined();
    await admin.deletePredefinedFilter(name);
    await expectStreamError(admin.getPredefinedFilter(name), { code: 16, status: 404 });
  });

  it('queryChannels with a predefined filter and its values returns exactly the channels of the expanded filter, in the stored sort', async () => {
    const admin = env().admin;
    const user = await connectUser(env(), uniqueId('dao-huu'));
    const phai = uniqueId('phai');
    const cids = await sectChannels(env(), user, phai);
    const name = uniqueId('moi-nhat');
    await admin.createPredefinedFilter({
      name,
      operation: 'QueryChannels',
      filter: template,
      sort: [{ field: '{{sort_field}}', direction: -1 }],
    });
    const values = { user_id: user.userID!, phai };
    const response = await user.queryChannels(
      {},
      [{ created_at: 1 }],
      { predefined_filter: name, filter_values: values, sort_values: { sort_field: 'created_at' } },
      { withResponse: true },
    );
    const expanded = { type: 'messaging', members: { $in: [user.userID!] }, phai };
    expect(response.predefined_filter).toEqual({
      name,
      filter: expanded,
      sort: [{ field: 'created_at', direction: -1 }],
    });
    // The stored sort wins over the request's ascending one: newest first.
    expect(response.channels.map((c) => c.cid)).toEqual([...cids].reverse());
    const direct = await user.queryChannels(expanded, [{ created_at: -1 }]);
    expect(response.channels.map((c) => c.cid)).toEqual(direct.map((c) => c.cid));
  });

  it('uses the request’s sort when the filter stores none', async () => {
    const admin = env().admin;
    const user = await connectUser(env(), uniqueId('dao-huu'));
    const phai = uniqueId('phai');
    const cids = await sectChannels(env(), user, phai);
    const name = uniqueId('khong-sap');
    await admin.createPredefinedFilter({ name, operation: 'QueryChannels', filter: template });
    const response = await user.queryChannels(
      {},
      [{ created_at: 1 }],
      { predefined_filter: name, filter_values: { user_id: user.userID!, phai } },
      { withResponse: true },
    );
    expect(response.channels.map((c) => c.cid)).toEqual(cids);
    expect(response.predefined_filter?.sort).toBeUndefined();
  });

  it('lists filters in pages with next and prev cursors, in the order asked', async () => {
    const admin = env().admin;
    const prefix = uniqueId('ds');
    for (const suffix of ['a', 'b', 'c'])
      await admin.createPredefinedFilter({
        name: `${prefix}-${suffix}`,
        operation: 'QueryChannels',
        filter: { type: 'messaging' },
      });
    const ours = (list: { name: string }[]) =>
      list.map((f) => f.name).filter((n) => n.startsWith(prefix));
    const all = await admin.listPredefinedFilters({
      limit: 100,
      sort: [{ field: 'name', direction: -1 }],
    });
    expect(ours(all.predefined_filters)).toEqual([`${prefix}-c`, `${prefix}-b`, `${prefix}-a`]);
    const everyName = all.predefined_filters.map((f) => f.name);
    const first = await admin.listPredefinedFilters({
      limit: 2,
      sort: [{ field: 'name', direction: -1 }],
    });
    expect(first.predefined_filters.map((f) => f.name)).toEqual(everyName.slice(0, 2));
    expect(first.prev).toBeUndefined();
    const second = await admin.listPredefinedFilters({
      limit: 2,
      next: first.next,
      sort: [{ field: 'name', direction: -1 }],
    });
    expect(second.predefined_filters.map((f) => f.name)).toEqual(everyName.slice(2, 4));
    const back = await admin.listPredefinedFilters({
      limit: 2,
      prev: second.prev,
      sort: [{ field: 'name', direction: -1 }],
    });
    expect(back.predefined_filters.map((f) => f.name)).toEqual(everyName.slice(0, 2));
  });

  it('refuses every predefined-filter route to a user token with code 17, changing nothing', async () => {
    const admin = env().admin;
    const name = uniqueId('chi-may-chu');
    await admin.createPredefinedFilter({
      name,
      operation: 'QueryChannels',
      filter: { type: 'messaging' },
    });
    const userId = uniqueId('tan-tu');
    await connectUser(env(), userId);
    const body = { operation: 'QueryChannels', filter: { type: 'livestream' } };
    const calls = [
      { method: 'POST', path: '/predefined_filters', body: { ...body, name: uniqueId('x') } },
      { method: 'GET', path: '/predefined_filters' },
      { method: 'GET', path: `/predefined_filters/${name}` },
      { method: 'PUT', path: `/predefined_filters/${name}`, body },
      { method: 'DELETE', path: `/predefined_filters/${name}` },
    ] as const;
    for (const call of calls)
      expectStreamErrorBody(await rawRequest(env(), { ...call, userId }), 17, 403);
    expect((await admin.getPredefinedFilter(name)).predefined_filter.filter).toEqual({
      type: 'messaging',
    });
  });

  it('answers unknown names with 16 and a duplicate name with 4, changing nothing', async () => {
    const admin = env().admin;
    const name = uniqueId('trung');
    await admin.createPredefinedFilter({
      name,
      operation: 'QueryChannels',
      filter: { type: 'messaging' },
    });
    await expectStreamError(
      admin.createPredefinedFilter({ name, operation: 'QueryChannels', filter: { type: 'team' } }),
      { code: 4, message: /already exists/ },
    );
    expect((await admin.getPredefinedFilter(name)).predefined_filter.filter).toEqual({
      type: 'messaging',
    });
    const missing = uniqueId('khong-co');
    await expectStreamError(admin.getPredefinedFilter(missing), { code: 16 });
    await expectStreamError(
      admin.updatePredefinedFilter(missing, { operation: 'QueryChannels', filter: { a: 1 } }),
      { code: 16 },
    );
    await expectStreamError(admin.deletePredefinedFilter(missing), { code: 16 });
    const user = await connectUser(env(), uniqueId('dao-huu'));
    await expectStreamError(user.queryChannels({}, [], { predefined_filter: missing }), {
      code: 16,
    });
  });

  it('refuses bad values with code 4 naming the field, changing nothing', async () => {
    const admin = env().admin;
    const name = uniqueId('bat-bien');
    await admin.createPredefinedFilter({ name, operation: 'QueryChannels', filter: template });
    const op = 'QueryChannels' as const;
    const bad = (v: unknown) => v as never;
    // Thunks: each call starts only when awaited, so no refusal goes unhandled meanwhile.
    const cases: [() => Promise<unknown>, RegExp][] = [
      [
        () => admin.createPredefinedFilter({ name: 'có dấu', operation: op, filter: { a: 1 } }),
        /name/,
      ],
      [
        () =>
          admin.createPredefinedFilter({
            name: uniqueId('x'),
            operation: bad('QueryUsers'),
            filter: { a: 1 },
          }),
        /operation/,
      ],
      [
        () => admin.createPredefinedFilter({ name: uniqueId('x'), operation: op, filter: {} }),
        /filter/,
      ],
      [
        () =>
          admin.createPredefinedFilter({
            name: uniqueId('x'),
            operation: op,
            filter: { text: 'x'.repeat(5000) },
          }),
        /filter/,
      ],
      [
        () =>
          admin.createPredefinedFilter({
            name: uniqueId('x'),
            operation: op,
            filter: { a: 1 },
            sort: [{ field: 'created_at', direction: bad(2) }],
          }),
        /sort\[0\]\.direction/,
      ],
      [() => admin.updatePredefinedFilter(name, { operation: op, filter: bad('x') }), /filter/],
      [
        () => admin.listPredefinedFilters({ sort: [{ field: 'filter', direction: 1 }] }),
        /sort\[0\]\.field/,
      ],
    ];
    for (const [call, field] of cases) await expectStreamError(call(), { code: 4, message: field });
    const user = await connectUser(env(), uniqueId('dao-huu'));
    const query = (filter_values: Record<string, unknown>) =>
      user.queryChannels({}, [], { predefined_filter: name, filter_values });
    await expectStreamError(query({ user_id: user.userID! }), {
      code: 4,
      message: /filter_values\.phai/,
    });
    await expectStreamError(query({ user_id: { $ne: '' }, phai: 'x' }), {
      code: 4,
      message: /filter_values\.user_id/,
    });
    const raw = await rawRequest(env(), {
      method: 'POST',
      path: '/predefined_filters',
      token: signJwt({ server: true }, env().server.apiSecret),
      body: { name: uniqueId('x'), operation: 'QueryChannels', filter: 'not an object' },
    });
    expectStreamErrorBody(raw, 4, 400);
    expect((raw.body as { message: string }).message).toMatch(/filter/);
    expect((await admin.getPredefinedFilter(name)).predefined_filter.filter).toEqual(template);
  });
});

describe('predefined filters per app', { timeout: 60_000 }, () => {
  const env = useContractEnv();

  it('refuses the 101st filter of an app with code 4, storing nothing', async () => {
    const admin = env().admin;
    for (let i = 0; i < 100; i++)
      await admin.createPredefinedFilter({
        name: `loc-${i}`,
        operation: 'QueryChannels',
        filter: { type: 'messaging' },
      });
    await expectStreamError(
      admin.createPredefinedFilter({
        name: 'loc-100',
        operation: 'QueryChannels',
        filter: { type: 'messaging' },
      }),
      { code: 4, message: /at most 100 predefined filters/ },
    );
    await expectStreamError(admin.getPredefinedFilter('loc-100'), { code: 16 });
    const listed = await admin.listPredefinedFilters({ limit: 100 });
    expect(listed.predefined_filters).toHaveLength(100);
    expect(listed.next).toBeUndefined();
  });
});
