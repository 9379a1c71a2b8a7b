import { describe, expect, it } from 'vitest';
import { groupFaces } from './group-avatar';

const me = { id: 'me', userName: 'Thanh Vân' };
const lac = { id: 'lac', userName: 'Lạc Hà' };
const bach = { id: 'bach', userName: 'Bạch Vân' };
const lang = { id: 'lang', userName: 'Lăng Phong' };

describe('groupFaces', () => {
  it('shows two other members and leaves one’s own face out', () => {
    expect(groupFaces([me, lac, bach, lang], 'me')).toEqual([lac, bach]);
  });

  it('keeps one’s own face when only one other member is there to show', () => {
    expect(groupFaces([me, lac], 'me')).toEqual([me, lac]);
  });

  it('never shows more than two faces', () => {
    expect(groupFaces([lac, bach, lang], undefined)).toHaveLength(2);
  });
});
