// The search this bench measures against: the substring scan GET /search ran before the index (commit dad7962),
// a case-insensitive LIKE over the text of at most 500 readable channels, newest first.
import { sql } from 'kysely';
import { lowerText } from '../../packages/chat-server/src/db/dialect.ts';
import type { Db, SqlDialectKind } from '../../packages/chat-server/src/db/schema.ts';
import type { Actor } from '../../packages/chat-server/src/chat/core/access/access.ts';
import { visibleToViewer } from '../../packages/chat-server/src/chat/core/access/visibility.ts';
import { compileChannelFilter } from '../../packages/chat-server/src/chat/core/channels/query.ts';
import { likePrefix } from '../../packages/chat-server/src/chat/core/query/filter.ts';
import type { JsonObject } from '../../packages/chat-server/src/chat/core/json.ts';

const MAX_CHANNELS = 500;

export async function substringSearch(
  db: Db,
  actor: Actor,
  channelFilter: JsonObject,
  query: string,
  limit: number,
  dialect: SqlDialectKind = 'sqlite',
): Promise<number> {
  const channels = await db
    .selectFrom('channels as c')
    .leftJoin('members as m', (join) =>
      join
        .onRef('m.app_id', '=', 'c.app_id')
        .onRef('m.cid', '=', 'c.cid')
        .on('m.user_id', '=', actor.userId ?? ''),
    )
    .select('c.cid')
    .where('c.app_id', '=', actor.appId)
    .where('c.deleted_at', 'is', null)
    .where(compileChannelFilter(dialect, actor, channelFilter))
    .limit(MAX_CHANNELS)
    .execute();
  const cids = channels.map((row) => row.cid);
  if (cids.length === 0) return 0;
  const needle = likePrefix(query.trim().toLocaleLowerCase());
  const rows = await db
    .selectFrom('messages as m')
    .select('m.id')
    .where('m.app_id', '=', actor.appId)
    .where('m.cid', 'in', cids)
    .where('m.deleted_at', 'is', null)
    .where(visibleToViewer('m', actor.userId))
    .where(sql<boolean>`${lowerText(dialect, sql.ref('m.text'))} like ${`%${needle}%`} escape '\\'`)
    .orderBy('m.created_at', 'desc')
    .orderBy('m.id')
    .limit(limit + 1)
    .execute();
  return rows.length;
}
