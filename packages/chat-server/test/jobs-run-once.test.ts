import pg from 'pg';
import { StreamChat, type Event } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueId } from './contract/helpers.ts';
import { eventually } from './s3-support.ts';
import {
  childDatabase,
  startChildChatServer,
  type ChildChatServer,
  type ChildDatabase,
} from './security/services.ts';

const redisUrl = process.env.REDIS_URL;
const onPostgres = process.env.CHAT_TEST_DIALECT === 'postgres' && !!redisUrl;

/** Short leases, so a take-over after a crash happens within the test's bounded waits. */
const JOBS = { CHAT_JOB_LEASE_MS: '3000', CHAT_JOB_SWEEP_MS: '200' };

describe.skipIf(!onPostgres)('background jobs on two nodes run on exactly one of them', () => {
  let database: ChildDatabase;
  let nodes: ChildChatServer[] = [];
  let admin: StreamChat;
  const clients: StreamChat[] = [];

  beforeAll(async () => {
    database = await childDatabase();
    const env = { REDIS_URL: redisUrl!, ...JOBS };
    const first = await startChildChatServer(database, env);
    const credentials = { apiKey: first.apiKey, apiSecret: first.apiSecret };
    nodes = [first, await startChildChatServer(database, env, credentials)];
    admin = serverClient(first);
  }, 180_000);
  afterAll(async () => {
    await Promise.allSettled(clients.map((client) => client.disconnectUser(500)));
    for (const node of nodes) await node.kill();
    await database?.drop();
  }, 180_000);

  const serverClient = (node: ChildChatServer) =>
    new StreamChat(node.apiKey, node.apiSecret, { baseURL: node.baseURL });

  /** The lease row's owner id, as the node holding it logged it when it took the lease. */
  async function leaseHolder(job: string): Promise<ChildChatServer> {
    const client = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await client.connect();
    try {
      let owner = '';
      await eventually(async () => {
        const { rows } = await client.query<{ owner: string | null }>(
          'select owner from job_leases where name = $1',
          [job],
        );
        owner = rows[0]?.owner ?? '';
        return owner !== '';
      }, `a node to hold ${job}`);
      const holder = nodes.find((node) => node.output().includes(owner));
      if (!holder) throw new Error(`no node logged taking ${job} as ${owner}`);
      return holder;
    } finally {
      await client.end();
    }
  }

  /** The owner connected once to each given node, with every reminder_due each connection receives. */
  async function ownerOn(userId: string, on: ChildChatServer[]): Promise<Event[][]> {
    return Promise.all(
      on.map(async (node) => {
        const client = new StreamChat(node.apiKey, {
          baseURL: node.baseURL,
          allowServerSideConnect: true,
        });
        clients.push(client);
        await client.connectUser({ id: userId }, admin.createToken(userId));
        const seen: Event[] = [];
        client.on('notification.reminder_due', (event) => seen.push(event));
        return seen;
      }),
    );
  }

  /** Through `via` (a server-side client of one node): a message and a reminder on it for `owner` due in `inMs`. */
  async function remindIn(via: StreamChat, owner: string, inMs: number): Promise<string> {
    const admin = via;
    const author = uniqueId('tac-gia');
    await admin.upsertUsers([{ id: owner }, { id: author }]);
    const channel = admin.channel('messaging', uniqueId('nhac'), {
      members: [owner, author],
      created_by_id: author,
    });
    await channel.create();
    const { message } = await channel.sendMessage({ text: 'nhắc ta', user_id: author });
    await admin.createReminder({
      messageId: message.id,
      user_id: owner,
      remind_at: new Date(Date.now() + inMs).toISOString(),
    });
    return message.id;
  }

  /** Waits for one reminder_due on every connection, then for two more sweeps in which no second one may come. */
  async function expectExactlyOnce(perConnection: Event[][], messageId: string): Promise<void> {
    const dueFor = (seen: Event[]) => seen.filter((e) => e.reminder?.message_id === messageId);
    await eventually(
      async () => perConnection.every((seen) => dueFor(seen).length > 0),
      'notification.reminder_due on every connection of the owner',
      30_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    for (const seen of perConnection) expect(dueFor(seen)).toHaveLength(1);
  }

  it('announces a due reminder once per connection of its owner, not once per node', async () => {
    const owner = uniqueId('chu-nhan');
    const perConnection = await ownerOn(owner, nodes);
    // Created through the node that does not hold the lease, so the holder must find it in the database.
    const holder = await leaseHolder('reminders-due');
    const other = nodes.find((node) => node !== holder)!;
    const messageId = await remindIn(serverClient(other), owner, 1500);
    await expectExactlyOnce(perConnection, messageId);
  }, 180_000);

  it('moves the job to the other node when the holder dies without a clean shutdown', async () => {
    const holder = await leaseHolder('reminders-due');
    const survivor = nodes.find((node) => node !== holder)!;
    const owner = uniqueId('chu-nhan');
    const perConnection = await ownerOn(owner, [survivor, survivor]);
    // Created through the holder, which dies before it comes due: only a take-over can announce it.
    const orphaned = await remindIn(serverClient(holder), owner, 2000);
    await holder.kill();
    await expectExactlyOnce(perConnection, orphaned);
    expect(await leaseHolder('reminders-due')).toBe(survivor);

    const later = await remindIn(serverClient(survivor), owner, 1000);
    await expectExactlyOnce(perConnection, later);
  }, 180_000);
});
