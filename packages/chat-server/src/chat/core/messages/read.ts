import { actorWindow, historyBound, inWindow } from '../access/visibility.ts';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import type { ChannelAccess } from '../channels/service.ts';
import type { MessagesUseCaseContext } from './context.ts';
import { parseSort } from '../query/sort.ts';
import { parseMessagePage } from './pagination.ts';
import { centredPins, parsePinnedPage, pinOrder } from './pinned-page.ts';
import type { MessageRow } from './repo.ts';
import type { MessagesService } from './service.ts';

const GET_MANY_MAX = 100;

function byCreatedAt(a: MessageRow, b: MessageRow): number {
  return a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;
}

/**
 * getReplies' `sort`, as Stream documents it: by `created_at` only, newest page first by default (-1); `created_at: 1`
 * gives the oldest page. Either way the page comes back oldest first, as every message list does.
 */
function repliesOldestFirst(sort: unknown): boolean {
  const items = parseSort(sort);
  if (items.some((item) => item.field !== 'created_at'))
    throw chatError.input('replies can only be sorted by created_at');
  return items[0]?.direction === 1;
}

/** Reading messages: one by id, several by ids, a thread's replies and a channel's pinned messages. */
export function createReadUseCases(
  context: MessagesUseCaseContext,
): Pick<MessagesService, 'get' | 'getMany' | 'replies' | 'pinned'> {
  const { deps, repo, assembler, lookup } = context;

  async function readableChannel(actor: Actor, typeName: string, id: string) {
    const access = await lookup.channelAccess(actor, typeName, id);
    requirePermission(access.permissions, 'read-channel', `reading channel ${access.channel.cid}`);
    return access;
  }

  const bound = (access: ChannelAccess) => historyBound(access.channel, access.membership);

  return {
    async get(actor, messageId) {
      const { row } = await lookup.accessMessage(actor, messageId);
      return { message: await assembler.one(actor.appId, row, actor.userId) };
    },

    async getMany(actor, typeName, id, ids) {
      const access = await readableChannel(actor, typeName, id);
      if (ids.length === 0) throw chatError.input('ids is required');
      if (ids.length > GET_MANY_MAX)
        throw chatError.input(`at most ${GET_MANY_MAX} ids can be requested`);
      const window = actorWindow(actor, access);
      const rows = [...(await repo.getMany(actor.appId, ids)).values()]
        .filter((r) => r.cid === access.channel.cid && inWindow(window, r))
        .sort(byCreatedAt);
      return { messages: await assembler.assemble(actor.appId, rows, actor.userId) };
    },

    async replies(actor, parentId, query) {
      const { row, access } = await lookup.accessMessage(actor, parentId);
      const page = {
        ...parseMessagePage(query, { limit: 100, max: 300 }),
        oldestFirst: repliesOldestFirst(query.sort),
      };
      const rows = await repo.page(
        { appId: actor.appId, parentId: row.id, visibleAfter: bound(access), viewer: actor.userId },
        page,
      );
      return { messages: await assembler.assemble(actor.appId, rows, actor.userId) };
    },

    async pinned(actor, typeName, id, payload) {
      const access = await readableChannel(actor, typeName, id);
      const cid = access.channel.cid;
      const now = deps.clock.now();
      const page = await parsePinnedPage(payload, async (messageId) => {
        const row = await repo.get(actor.appId, messageId);
        return row && row.cid === cid && row.pinned === 1 && row.pinned_at
          ? { pinnedAt: row.pinned_at, id: row.id }
          : undefined;
      });
      const pins = (conditions: typeof page.conditions, fetch: 'asc' | 'desc') =>
        repo.pinned(actor.appId, cid, page.limit, now, bound(access), actor.userId, {
          conditions,
          fetch,
          offset: page.offset,
        });
      let rows: MessageRow[];
      if (page.around) {
        const [older, newer] = await Promise.all([
          pins([pinOrder('<', page.around)], 'desc'),
          pins([pinOrder('>=', page.around)], 'asc'),
        ]);
        rows = centredPins(older, newer, page.limit);
        if (page.order === 'desc') rows.reverse();
      } else {
        rows = await pins(page.conditions, page.fetch);
        if (page.fetch !== page.order) rows.reverse();
      }
      return { messages: await assembler.assemble(actor.appId, rows, actor.userId) };
    },
  };
}
