import { describe, expect, it } from 'vitest';
import {
  OUTBOX_MAX_AGE_MS,
  OUTBOX_MAX_ENTRIES,
  OUTBOX_MAX_ENTRY_CHARS,
  createOutbox,
  type OutboxStorage,
} from './outbox-store';

function memoryStorage(): OutboxStorage & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (key) => data.get(key) ?? null,
    setItem: (key, value) => void data.set(key, value),
    removeItem: (key) => void data.delete(key),
  };
}

function entry(id: string, text = 'xin chào') {
  return { cid: 'messaging:abc', message: { id, text } };
}

describe('the outbox', () => {
  it('keeps a queued send per user and forgets it once removed', () => {
    const outbox = createOutbox(memoryStorage());
    outbox.put('a', entry('m1'));
    expect(outbox.list('a').map((item) => item.message.id)).toEqual(['m1']);
    expect(outbox.list('b')).toEqual([]);
    outbox.remove('a', 'm1');
    expect(outbox.list('a')).toEqual([]);
  });

  it('queues the same message id once, keeping when it was first queued', () => {
    let clock = 1_000;
    const outbox = createOutbox(memoryStorage(), () => clock);
    outbox.put('a', entry('m1', 'một'));
    clock = 2_000;
    outbox.put('a', entry('m1', 'hai'));
    expect(outbox.list('a')).toEqual([
      { cid: 'messaging:abc', message: { id: 'm1', text: 'hai' }, queuedAt: 1_000 },
    ]);
  });

  it('keeps only the newest entries past its bound', () => {
    const outbox = createOutbox(memoryStorage());
    for (let index = 0; index < OUTBOX_MAX_ENTRIES + 5; index += 1)
      outbox.put('a', entry(`m${index}`));
    const ids = outbox.list('a').map((item) => item.message.id);
    expect(ids).toHaveLength(OUTBOX_MAX_ENTRIES);
    expect(ids[0]).toBe('m5');
  });

  it('does not keep a message too large to store', () => {
    const outbox = createOutbox(memoryStorage());
    outbox.put('a', entry('big', 'x'.repeat(OUTBOX_MAX_ENTRY_CHARS)));
    expect(outbox.list('a')).toEqual([]);
  });

  it('drops entries older than its age limit instead of sending them days late', () => {
    let clock = 0;
    const outbox = createOutbox(memoryStorage(), () => clock);
    outbox.put('a', entry('m1'));
    clock = OUTBOX_MAX_AGE_MS + 1;
    expect(outbox.list('a')).toEqual([]);
  });

  it('ignores storage it cannot read: garbage, foreign shapes and entries without an id', () => {
    const storage = memoryStorage();
    const outbox = createOutbox(storage);
    storage.setItem('daohuu:outbox:v1:a', '{not json');
    expect(outbox.list('a')).toEqual([]);
    storage.setItem(
      'daohuu:outbox:v1:a',
      JSON.stringify([{ cid: 'x', message: {}, queuedAt: 1 }, 7]),
    );
    expect(outbox.list('a')).toEqual([]);
  });

  it('keeps nothing, and throws nothing, without storage', () => {
    const outbox = createOutbox(null);
    outbox.put('a', entry('m1'));
    expect(outbox.list('a')).toEqual([]);
  });
});
