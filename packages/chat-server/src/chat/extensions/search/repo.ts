import type { RawBuilder } from 'kysely';
import type { Db } from '../../../db/schema.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import { visibleToViewer } from '../../core/access/visibility.ts';

export interface SearchRepo {
  /** Cids matching a compiled channel filter (alias `c`, the viewer's membership `m`). */
  readableChannels(
    appId: string,
    viewerId: string,
    where: RawBuilder<boolean>,
    limit: number,
  ): Promise<string[]>;
  /**
   * Messages of those channels matching a compiled message filter (alias `m`), excluding deleted ones and those
   * hidden from `viewerId` (null: a server call naming nobody, for whom only truncation hides).
   */
  messages(
    appId: string,
    viewerId: string | null,
    cids: string[],
    where: RawBuilder<boolean>,
    order: RawBuilder<unknown>[],
    limit: number,
    offset: number,
  ): Promise<MessageRow[]>;
}

export function createSearchRepo(db: Db): SearchRepo {
  return {
    async readableChannels(appId, viewerId, where, limit) {
      const rows = await db
        .selectFrom('channels as c')
        .leftJoin('members as m', (join) =>
          join
            .onRef('m.app_id', '=', 'c.app_id')
            .onRef('m.cid', '=', 'c.cid')
            .on('m.user_id', '=', viewerId),
        )
        .select('c.cid')
        .where('c.app_id', '=', appId)
        .where('c.deleted_at', 'is', null)
        .where(where)
        .limit(limit)
        .execute();
      return rows.map((r) => r.cid);
    },
    messages(appId, viewerId, cids, where, order, limit, offset) {
      let query = db
        .selectFrom('messages as m')
        .selectAll('m')
        .where('m.app_id', '=', appId)
        .where('m.cid', 'in', cids)
        .where('m.deleted_at', 'is', null)
        .where(visibleToViewer('m', viewerId))
        .where(where);
      for (const item of order) query = query.orderBy(item);
      return query.orderBy('m.id').limit(limit).offset(offset).execute();
    },
  };
}
