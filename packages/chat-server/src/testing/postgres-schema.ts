import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A fresh schema in the PostgreSQL database at `url`, and how to drop it (one per test server or test database). */
export async function createPostgresSchema(
  url: string,
  prefix = 'chat_test',
): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`create schema ${schema}`);
  } finally {
    await client.end();
  }
  return {
    schema,
    async drop() {
      const dropper = new pg.Client({ connectionString: url });
      await dropper.connect();
      try {
        await dropper.query(`drop schema if exists ${schema} cascade`);
      } finally {
        await dropper.end();
      }
    },
  };
}
