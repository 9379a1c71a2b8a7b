import { describe, expect, it } from 'vitest';
import {
  activeFilterCount,
  FILE_ATTACHMENT_TYPES,
  messageFilterConditions,
  NO_MESSAGE_FILTERS,
} from './message-filters';

const TYPES = { $in: ['regular', 'reply'] };

describe('messageFilterConditions', () => {
  it.each([
    ['no filter', NO_MESSAGE_FILTERS, {}],
    [
      'in this channel',
      { ...NO_MESSAGE_FILTERS, channelCid: 'messaging:abc' },
      { cid: 'messaging:abc' },
    ],
    ['from a person', { ...NO_MESSAGE_FILTERS, fromUserId: 'u-1' }, { 'user.id': 'u-1' }],
    [
      'with files',
      { ...NO_MESSAGE_FILTERS, withFiles: true },
      { 'attachments.type': { $in: FILE_ATTACHMENT_TYPES } },
    ],
    ['pinned', { ...NO_MESSAGE_FILTERS, pinned: true }, { pinned: true }],
    [
      'every filter at once',
      { channelCid: 'livestream:tong-mon', fromUserId: 'u-2', withFiles: true, pinned: true },
      {
        cid: 'livestream:tong-mon',
        'user.id': 'u-2',
        'attachments.type': { $in: FILE_ATTACHMENT_TYPES },
        pinned: true,
      },
    ],
  ])('maps %s to message_filter_conditions', (_case, filters, expected) => {
    expect(messageFilterConditions('  tong mon ', filters)).toEqual({
      text: 'tong mon',
      type: TYPES,
      ...expected,
    });
  });

  it('counts files as files, images, videos and audio, never link previews or locations', () => {
    expect(FILE_ATTACHMENT_TYPES).toEqual(
      expect.arrayContaining(['file', 'image', 'video', 'audio']),
    );
    expect(FILE_ATTACHMENT_TYPES).not.toContain('giphy');
    expect(FILE_ATTACHMENT_TYPES).not.toContain('location');
  });
});

describe('activeFilterCount', () => {
  it('counts only the filters that are on', () => {
    expect(activeFilterCount(NO_MESSAGE_FILTERS)).toBe(0);
    expect(activeFilterCount({ ...NO_MESSAGE_FILTERS, pinned: true, fromUserId: 'u-1' })).toBe(2);
  });
});
