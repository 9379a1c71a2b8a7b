import type { LocalMessage } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { sortPinned } from './pinned-messages-panel';

function message(id: string, pinnedAt: string | null, createdAt: string): LocalMessage {
  return {
    id,
    pinned_at: pinnedAt ? new Date(pinnedAt) : null,
    created_at: new Date(createdAt),
  } as unknown as LocalMessage;
}

describe('sortPinned', () => {
  it('lists the most recently pinned message first, whenever it was written', () => {
    const old = message('old', '2026-01-03T10:00:00Z', '2026-01-01T10:00:00Z');
    const recent = message('recent', '2026-01-02T10:00:00Z', '2026-01-02T09:00:00Z');
    expect(sortPinned([recent, old]).map((m) => m.id)).toEqual(['old', 'recent']);
  });

  it('falls back to the creation time when a pin time is missing', () => {
    const a = message('a', null, '2026-01-05T00:00:00Z');
    const b = message('b', '2026-01-04T00:00:00Z', '2026-01-01T00:00:00Z');
    expect(sortPinned([b, a]).map((m) => m.id)).toEqual(['a', 'b']);
  });
});
