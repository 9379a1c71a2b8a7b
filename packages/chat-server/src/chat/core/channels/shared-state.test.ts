import { describe, expect, it } from 'vitest';
import type { ChannelType } from '../channel-types.ts';
import type { ChannelRow } from './repo.ts';
import { createSharedStateCache, type SharedPart } from './shared-state.ts';

const row: ChannelRow = {
  app_id: 'app',
  cid: 'livestream:sect',
  type: 'livestream',
  id: 'sect',
  created_by_id: 'ana',
  name: 'Thanh Vân Môn',
  name_search: null,
  image: null,
  custom: '{}',
  team: null,
  frozen: 0,
  disabled: 0,
  cooldown: 0,
  member_count: 1,
  distinct_key: null,
  last_message_at: null,
  truncated_at: null,
  created_at: '2026-11-27T00:00:00.000000Z',
  updated_at: '2026-11-27T00:00:00.000000Z',
  deleted_at: null,
  state_version: 1,
  config_overrides: null,
  truncated_by_id: null,
};
const type = { name: 'livestream' } as ChannelType;

function counter() {
  let builds = 0;
  const build = async (): Promise<SharedPart> => {
    builds += 1;
    return { text: `"channel":${builds}`, userIds: [], online: new Set() };
  };
  return { build, builds: () => builds };
}

describe('the shared channel state cache', () => {
  it('reuses a part for a row read again with the same fields', async () => {
    const cache = createSharedStateCache(() => 0);
    const { build, builds } = counter();
    await cache.part({ channel: row, type, stamp: 1 }, 'k', build);
    const again = await cache.part({ channel: { ...row }, type, stamp: 1 }, 'k', build);
    expect(again.text).toBe('"channel":1');
    expect(builds()).toBe(1);
  });

  it('builds the part again when any field of the row differs', async () => {
    const cache = createSharedStateCache(() => 0);
    const { build, builds } = counter();
    await cache.part({ channel: row, type, stamp: 1 }, 'k', build);
    await cache.part({ channel: { ...row, state_version: 2 }, type, stamp: 1 }, 'k', build);
    expect(builds()).toBe(2);
    await cache.part(
      { channel: { ...row, state_version: 2, name: null }, type, stamp: 1 },
      'k',
      build,
    );
    expect(builds()).toBe(3);
  });

  it('builds the part again for a new type object, a new stamp or an old part', async () => {
    let now = 0;
    const cache = createSharedStateCache(() => now);
    const { build, builds } = counter();
    await cache.part({ channel: row, type, stamp: 1 }, 'k', build);
    await cache.part({ channel: row, type: { ...type }, stamp: 1 }, 'k', build);
    expect(builds()).toBe(2);
    await cache.part({ channel: row, type, stamp: 2 }, 'k', build);
    expect(builds()).toBe(3);
    now = 1_000;
    await cache.part({ channel: row, type, stamp: 2 }, 'k', build);
    expect(builds()).toBe(4);
  });
});
