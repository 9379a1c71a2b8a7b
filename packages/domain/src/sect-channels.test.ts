import { describe, expect, it } from 'vitest';
import { isSectChannel, sectChannelFilter, sidebarChannelFilter } from './sect-channels.ts';

const SECTS = [
  { type: 'livestream', id: 'quang-truong' },
  { type: 'livestream', id: 'luan-dao' },
];

describe('sect channels', () => {
  it('filters by type and by the official ids', () => {
    expect(sectChannelFilter(SECTS)).toEqual({
      type: 'livestream',
      id: { $in: ['quang-truong', 'luan-dao'] },
    });
  });

  it('keeps one clause per type', () => {
    expect(sectChannelFilter([...SECTS, { type: 'team', id: 'ban-to' }])).toEqual({
      $or: [
        { type: 'livestream', id: { $in: ['quang-truong', 'luan-dao'] } },
        { type: 'team', id: { $in: ['ban-to'] } },
      ],
    });
  });

  it('matches nothing, not everything, without sect channels', () => {
    expect(sectChannelFilter([])).toEqual({ cid: { $in: [''] } });
  });

  it("adds the cultivator's own channels for a signed-in user, and nothing else for a visitor", () => {
    expect(sidebarChannelFilter(undefined, SECTS)).toEqual(sectChannelFilter(SECTS));
    expect(sidebarChannelFilter('u1', SECTS)).toEqual({
      $or: [{ members: { $in: ['u1'] } }, sectChannelFilter(SECTS)],
    });
  });

  it('treats only the listed channels as sects, whatever their type', () => {
    expect(isSectChannel({ type: 'livestream', id: 'luan-dao' }, SECTS)).toBe(true);
    expect(isSectChannel({ type: 'livestream', id: 'mao-danh' }, SECTS)).toBe(false);
    expect(isSectChannel({ type: 'messaging', id: 'luan-dao' }, SECTS)).toBe(false);
    expect(isSectChannel({ type: 'livestream' }, SECTS)).toBe(false);
  });
});
