import type { Kysely } from 'kysely';

/*
 * The product's three public rooms move from `livestream` (no read state, no typing) to their own built-in type
 * `sect` (chat/core/channel-types.ts). A channel's cid is part of the key of everything in it, and the tables that
 * reference `channels` do so without ON UPDATE CASCADE, so the channel row is copied under its new cid, every row
 * keyed by the old cid is moved to the new one, and the old channel row (now empty) is deleted. Nothing is lost: a
 * row that already exists under the new cid (a room created as `sect` before this ran) keeps the old one untouched.
 */

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations must not depend on the evolving schema type
type AnyDb = Kysely<any>;

const FROM_TYPE = 'livestream';
const TO_TYPE = 'sect';
const SECT_IDS = ['quang-truong', 'luan-dao', 'giao-dich'];

/** Every table holding a channel's cid, and the column that holds it. */
const CID_COLUMNS: readonly (readonly [table: string, column: string])[] = [
  ['members', 'cid'],
  ['messages', 'cid'],
  ['reads', 'cid'],
  ['threads', 'cid'],
  ['channel_mutes', 'cid'],
  ['polls', 'cid'],
  ['drafts', 'cid'],
  ['reminders', 'cid'],
  ['shared_locations', 'cid'],
  ['bans', 'cid'],
  ['flags', 'channel_cid'],
  ['review_items', 'channel_cid'],
];

async function moveChannel(db: AnyDb, id: string, from: string, to: string): Promise<void> {
  const oldCid = `${from}:${id}`;
  const newCid = `${to}:${id}`;
  const rows = (await db
    .selectFrom('channels')
    .selectAll()
    .where('cid', '=', oldCid)
    .execute()) as Record<string, unknown>[];
  for (const row of rows) {
    const appId = row.app_id as string;
    const taken = await db
      .selectFrom('channels')
      .select('cid')
      .where('app_id', '=', appId)
      .where('cid', '=', newCid)
      .executeTakeFirst();
    if (taken) continue;
    await db
      .insertInto('channels')
      .values({ ...row, cid: newCid, type: to })
      .execute();
    for (const [table, column] of CID_COLUMNS) {
      await db
        .updateTable(table)
        .set({ [column]: newCid })
        .where('app_id', '=', appId)
        .where(column, '=', oldCid)
        .execute();
    }
    await db.deleteFrom('channels').where('app_id', '=', appId).where('cid', '=', oldCid).execute();
  }
}

export async function up(db: AnyDb): Promise<void> {
  for (const id of SECT_IDS) await moveChannel(db, id, FROM_TYPE, TO_TYPE);
}

export async function down(db: AnyDb): Promise<void> {
  for (const id of SECT_IDS) await moveChannel(db, id, TO_TYPE, FROM_TYPE);
}
