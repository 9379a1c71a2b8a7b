import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../config.ts';
import { createDb } from './create-db.ts';
import { migrateToLatest } from './migrate.ts';

const url =
  process.env.CHAT_TEST_DIALECT === 'postgres' ? process.env.TEST_DATABASE_URL : undefined;

describe.runIf(url)('postgres: migrations', () => {
  const schemas: string[] = [];

  async function admin(query: string): Promise<void> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(query);
    } finally {
      await client.end();
    }
  }

  afterAll(async () => {
    for (const schema of schemas) await admin(`drop schema if exists ${schema} cascade`);
  });

  async function migrateFreshSchema(): Promise<string[]> {
    const schema = `migrate_test_${randomBytes(5).toString('hex')}`;
    schemas.push(schema);
    await admin(`create schema ${schema}`);
    const { db: config } = parseConfig({
      apps: [{ key: 'k', secret: 's' }],
      db: { kind: 'postgres', url, schema, poolSize: 1 },
    });
    const handle = createDb(config);
    try {
      await migrateToLatest(handle.db, handle.kind);
      const tables = await handle.db.introspection.getTables();
      return tables.filter((table) => table.schema === schema).map((table) => table.name);
    } finally {
      await handle.close();
    }
  }

  it('migrates a fresh schema although another schema of the database already has its migration tables', async () => {
    await migrateFreshSchema();
    expect(await migrateFreshSchema()).toContain('messages');
  });

  it('migrates a fresh schema while other schemas of the same database are being dropped', async () => {
    // Test servers share one database, each in its own schema, and drop it when they stop: a migration's look at the
    // catalog must not trip over a schema that disappears under it.
    const doomed = Array.from({ length: 60 }, () => `doomed_${randomBytes(5).toString('hex')}`);
    await admin(
      doomed.map((name) => `create schema ${name}; create table ${name}.t (id int);`).join(' '),
    );
    let dropping = true;
    const dropper = (async () => {
      for (const name of doomed) await admin(`drop schema ${name} cascade`);
      dropping = false;
    })();
    const migrated: string[][] = [];
    try {
      while (dropping) migrated.push(await migrateFreshSchema());
    } finally {
      await dropper;
    }
    expect(migrated.length).toBeGreaterThan(0);
    for (const tables of migrated) expect(tables).toContain('messages');
  });
});
