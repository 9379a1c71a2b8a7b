import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDb, dialectName, testUserRow, type TestDb } from '../testing/test-db.ts';
import { createWriteQueue, PATIENT, type WriteOptions } from './write-queue.ts';

describe(`${dialectName()}: write queue`, () => {
  let db: TestDb;
  beforeEach(async () => {
    db = await createTestDb();
  });
  afterEach(async () => {
    await db.close();
  });

  type Trx = Parameters<Parameters<ReturnType<typeof createWriteQueue>['run']>[0]>[0];

  function insertUser(id: string) {
    return (trx: Trx) =>
      trx
        .insertInto('users')
        .values(testUserRow(db.appId, id))
        .execute()
        .then(() => id);
  }

  it('commits writes enqueued in the same turn in one transaction and resolves each with its own result', async () => {
    const queue = createWriteQueue(db.db, 100);
    const transactions = new Set<object>();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        queue.run((trx) => {
          transactions.add(trx);
          return insertUser(`u${i}`)(trx);
        }),
      ),
    );
    expect(results).toEqual(Array.from({ length: 50 }, (_, i) => `u${i}`));
    expect(transactions.size).toBe(1);
    const { count } = await db.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(50);
  });

  it('lets writes that keep coming in separate turns join one commit while it lingers', async () => {
    const queue = createWriteQueue(db.db, 100, 50);
    await queue.run(insertUser('first'));
    await new Promise((resolve) => setImmediate(resolve));
    const transactions: object[] = [];
    const later: Promise<string>[] = [];
    // Each write in its own macrotask, as handshakes of a reconnect storm arrive.
    for (const id of ['a', 'b', 'c']) {
      later.push(
        queue.run((trx) => {
          transactions.push(trx);
          return insertUser(id)(trx);
        }),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(later)).toEqual(['a', 'b', 'c']);
    expect(new Set(transactions).size).toBe(1);
  });

  it('commits each turn on its own without a linger', async () => {
    const queue = createWriteQueue(db.db, 100, 0);
    await queue.run(insertUser('first'));
    const transactions: object[] = [];
    const later: Promise<string>[] = [];
    for (const id of ['a', 'b']) {
      later.push(
        queue.run((trx) => {
          transactions.push(trx);
          return insertUser(id)(trx);
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(later);
    expect(new Set(transactions).size).toBe(2);
  });

  it('starts an occasional write at once instead of waiting for the linger', async () => {
    // A linger far beyond the test's timeout: a write that waited for it would fail the test.
    const queue = createWriteQueue(db.db, 100, 60_000);
    expect(await queue.run(insertUser('alone'))).toBe('alone');
  });

  it('does not hold back a stream whose batches are already large', async () => {
    // Concurrent sends fill their batches by themselves; waiting would only delay them. A linger far beyond the
    // test's timeout: a write that waited for it would fail the test.
    const queue = createWriteQueue(db.db, 100, 60_000);
    await Promise.all(Array.from({ length: 8 }, (_, i) => queue.run(insertUser(`burst${i}`))));
    await new Promise((resolve) => setImmediate(resolve));
    expect(await queue.run(insertUser('next'))).toBe('next');
  });

  it('fails only the bad write of a batch and keeps the others', async () => {
    const queue = createWriteQueue(db.db, 100);
    await queue.run(insertUser('taken'));
    const outcomes = await Promise.allSettled([
      queue.run(insertUser('a')),
      queue.run(insertUser('taken')),
      queue.run(insertUser('b')),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const ids = (await db.db.selectFrom('users').select('id').orderBy('id').execute()).map(
      (r) => r.id,
    );
    expect(ids).toEqual(['a', 'b', 'taken']);
  });

  it('fails a whole batch at once when the database is unavailable, instead of retrying each write alone', async () => {
    const queue = createWriteQueue(db.db, 100);
    let attempts = 0;
    const outcomes = await Promise.allSettled([
      queue.run(async (trx) => {
        attempts += 1;
        await insertUser('c')(trx);
      }),
      queue.run(async () => {
        throw Object.assign(new Error('Connection terminated unexpectedly'), {
          code: 'ECONNRESET',
        });
      }),
    ]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected']);
    expect(attempts).toBe(1);
  });

  it('resolves only after the row is visible to other readers', async () => {
    const queue = createWriteQueue(db.db, 100);
    await queue.run(insertUser('durable'));
    expect(
      await db.db.selectFrom('users').select('id').where('id', '=', 'durable').executeTakeFirst(),
    ).toEqual({ id: 'durable' });
  });

  it('runs a burst in transactions of at most the configured size, in arrival order', async () => {
    const queue = createWriteQueue(db.db, 7);
    const transactions = new Map<object, number[]>();
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        queue.run(async (trx) => {
          transactions.set(trx, [...(transactions.get(trx) ?? []), i]);
          await insertUser(`b${i}`)(trx);
        }),
      ),
    );
    expect([...transactions.values()]).toEqual([
      [0, 1, 2, 3, 4, 5, 6],
      [7, 8, 9, 10, 11, 12, 13],
      [14, 15, 16, 17, 18, 19],
    ]);
  });

  describe('patient writes', () => {
    const turn = () => new Promise((resolve) => setImmediate(resolve));

    /** Enqueues `ids` one per macrotask, recording the transaction each ran in. */
    async function oneByOne(
      queue: ReturnType<typeof createWriteQueue>,
      ids: string[],
      options?: WriteOptions,
    ) {
      const transactions: object[] = [];
      const done: Promise<string>[] = [];
      for (const id of ids) {
        done.push(
          queue.run((trx) => {
            transactions.push(trx);
            return insertUser(id)(trx);
          }, options),
        );
        await turn();
      }
      return { results: await Promise.all(done), transactions };
    }

    it('lets patient writes in separate turns share one commit where ordinary writes would not wait', async () => {
      const queue = createWriteQueue(db.db, 100, 0, 50);
      await queue.run(insertUser('first'));
      const patient = await oneByOne(queue, ['a', 'b', 'c'], PATIENT);
      expect(patient.results).toEqual(['a', 'b', 'c']);
      expect(new Set(patient.transactions).size).toBe(1);
      const ordinary = await oneByOne(queue, ['d', 'e']);
      expect(new Set(ordinary.transactions).size).toBe(2);
    });

    it('keeps lingering after a large batch, which an ordinary write would not', async () => {
      const queue = createWriteQueue(db.db, 100, 50, 50);
      await Promise.all(Array.from({ length: 8 }, (_, i) => queue.run(insertUser(`big${i}`))));
      const patient = await oneByOne(queue, ['p1', 'p2'], PATIENT);
      expect(new Set(patient.transactions).size).toBe(1);
    });

    it('starts an occasional patient write at once', async () => {
      // A linger far beyond the test's timeout: a write that waited for it would fail the test.
      const queue = createWriteQueue(db.db, 100, 0, 60_000);
      expect(await queue.run(insertUser('alone'), PATIENT)).toBe('alone');
    });

    it('brings lingering patient writes forward when an ordinary write arrives, in one commit', async () => {
      const queue = createWriteQueue(db.db, 100, 0, 60_000);
      await queue.run(insertUser('first'), PATIENT);
      const transactions: object[] = [];
      const tracked = (id: string) => (trx: Trx) => {
        transactions.push(trx);
        return insertUser(id)(trx);
      };
      const waiting = queue.run(tracked('patient'), PATIENT);
      await turn();
      const urgent = queue.run(tracked('urgent'));
      expect(await Promise.all([waiting, urgent])).toEqual(['patient', 'urgent']);
      expect(new Set(transactions).size).toBe(1);
    });

    it('settles drain only once the lingering writes have committed', async () => {
      const queue = createWriteQueue(db.db, 100, 0, 30);
      await queue.run(insertUser('first'), PATIENT);
      let committed = false;
      void queue.run(insertUser('late'), PATIENT).then(() => {
        committed = true;
      });
      await queue.drain();
      expect(committed).toBe(true);
    });
  });
});
