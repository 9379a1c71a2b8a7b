import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../../../db/schema.ts';
import { shownToViewer } from '../access/visibility.ts';
import type { MessagePage } from './pagination.ts';
import type { MessageRow, MessageScope } from './repo.ts';

interface Cursor {
  created_at: string;
  id: string;
}

function scopeCondition(scope: MessageScope): RawBuilder<boolean> {
  const parts: RawBuilder<boolean>[] = [sql<boolean>`app_id = ${scope.appId}`];
  if (scope.cid !== undefined) parts.push(sql<boolean>`cid = ${scope.cid}`);
  if (scope.parentId === null) parts.push(sql<boolean>`(parent_id is null or show_in_channel = 1)`);
  else parts.push(sql<boolean>`parent_id = ${scope.parentId}`);
  if (scope.visibleAfter) parts.push(sql<boolean>`created_at > ${scope.visibleAfter}`);
  if (scope.viewer !== undefined) parts.push(shownToViewer(null, scope.viewer));
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

const before = (c: Cursor, inclusive: boolean) =>
  inclusive
    ? sql<boolean>`(created_at < ${c.created_at} or (created_at = ${c.created_at} and id <= ${c.id}))`
    : sql<boolean>`(created_at < ${c.created_at} or (created_at = ${c.created_at} and id < ${c.id}))`;
const after = (c: Cursor, inclusive: boolean) =>
  inclusive
    ? sql<boolean>`(created_at > ${c.created_at} or (created_at = ${c.created_at} and id >= ${c.id}))`
    : sql<boolean>`(created_at > ${c.created_at} or (created_at = ${c.created_at} and id > ${c.id}))`;

async function cursorOf(
  db: Db,
  appId: string,
  id: string | undefined,
): Promise<Cursor | undefined> {
  if (!id) return undefined;
  return db
    .selectFrom('messages')
    .select(['created_at', 'id'])
    .where('app_id', '=', appId)
    .where('id', '=', id)
    .executeTakeFirst();
}

async function fetch(
  db: Db,
  scope: MessageScope,
  conditions: RawBuilder<boolean>[],
  direction: 'asc' | 'desc',
  limit: number,
  offset = 0,
): Promise<MessageRow[]> {
  if (limit <= 0) return [];
  const where = sql<boolean>`${sql.join([scopeCondition(scope), ...conditions], sql` and `)}`;
  const rows = await db
    .selectFrom('messages')
    .selectAll()
    .where(where)
    .orderBy(sql`created_at ${sql.raw(direction)}`)
    .orderBy(sql`id ${sql.raw(direction)}`)
    .limit(limit)
    .offset(offset)
    .execute();
  return direction === 'desc' ? rows.reverse() : rows;
}

/** One page of messages in `scope`: around a message or an instant, or before/after cursors, oldest first. */
export async function pageMessages(
  db: Db,
  scope: MessageScope,
  page: MessagePage,
): Promise<MessageRow[]> {
  const { limit } = page;
  if (page.idAround || page.createdAtAround) {
    let pivot: Cursor | undefined;
    if (page.idAround) pivot = await cursorOf(db, scope.appId, page.idAround);
    else pivot = { created_at: page.createdAtAround!, id: '' };
    if (!pivot) return fetch(db, scope, [], 'desc', limit);
    const olderCount = Math.floor(limit / 2);
    const older = await fetch(db, scope, [before(pivot, false)], 'desc', olderCount);
    const newer = await fetch(
      db,
      scope,
      [after(pivot, page.idAround !== undefined)],
      'asc',
      limit - older.length,
    );
    return [...older, ...newer];
  }
  const conditions: RawBuilder<boolean>[] = [];
  let ascending = page.oldestFirst === true;
  const lt = await cursorOf(db, scope.appId, page.idLt ?? page.idLte);
  if (lt) conditions.push(before(lt, page.idLte !== undefined && page.idLt === undefined));
  const gt = await cursorOf(db, scope.appId, page.idGt ?? page.idGte);
  if (gt) {
    conditions.push(after(gt, page.idGte !== undefined && page.idGt === undefined));
    ascending = true;
  }
  if (page.createdAtBefore) conditions.push(sql<boolean>`created_at < ${page.createdAtBefore}`);
  if (page.createdAtBeforeOrEqual)
    conditions.push(sql<boolean>`created_at <= ${page.createdAtBeforeOrEqual}`);
  if (page.createdAtAfter) {
    conditions.push(sql<boolean>`created_at > ${page.createdAtAfter}`);
    ascending = true;
  }
  if (page.createdAtAfterOrEqual) {
    conditions.push(sql<boolean>`created_at >= ${page.createdAtAfterOrEqual}`);
    ascending = true;
  }
  return fetch(db, scope, conditions, ascending ? 'asc' : 'desc', limit, page.offset);
}
