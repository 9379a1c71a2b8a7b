import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import { requirePermission, type Actor } from '../access/access.ts';
import type { ChannelAccess } from '../channels/service.ts';
import type { MessagesUseCaseContext } from './context.ts';
import type { MessageRow } from './repo.ts';
import { toHardDeletedResponse, type MessageResponse } from './serialize.ts';
import type { MessagesService } from './service.ts';

function checkMayDelete(actor: Actor, access: ChannelAccess, row: MessageRow): void {
  if (actor.isServer) return;
  if (row.user_id === actor.userId)
    requirePermission(access.permissions, 'delete-own-message', 'deleting this message');
  else
    requirePermission(access.permissions, 'delete-any-message', "deleting another user's message");
}

/** Soft delete (the message stays as type `deleted`), hard delete (the row goes) and delete-for-me. */
export function createDeleteUseCases(
  context: MessagesUseCaseContext,
): Pick<MessagesService, 'remove'> {
  const { deps, repo, assembler, lookup, points, events } = context;

  async function announceDeleted(
    actor: Actor,
    access: ChannelAccess,
    row: MessageRow,
    { message, user }: { message: object; user: MessageResponse['user'] },
    hard: boolean,
  ): Promise<void> {
    await lookup.toWatchersWhoSee(
      actor.appId,
      access.channel,
      row,
      lookup.event('message.deleted', access.channel, {
        message,
        hard_delete: hard,
        user,
      }),
    );
  }

  async function hardDelete(actor: Actor, access: ChannelAccess, row: MessageRow) {
    const now = deps.clock.now();
    const before = await assembler.one(actor.appId, row, null);
    await deps.writes.run(async (trx) => {
      await repo.remove(trx, actor.appId, row.id);
      // A pending reply never counted in its parent (store.ts recordCommitted).
      if (!row.parent_id || row.pending === 1) return;
      await trx
        .updateTable('messages')
        .set({ reply_count: sql`case when reply_count > 0 then reply_count - 1 else 0 end` })
        .where('app_id', '=', actor.appId)
        .where('id', '=', row.parent_id)
        .execute();
    });
    const gone = { appId: actor.appId, authorId: row.user_id, attachments: before.attachments };
    for (const listener of points.messageHardDeleted) await listener(gone);
    const message = toHardDeletedResponse(before, now);
    await announceDeleted(actor, access, row, { message, user: before.user }, true);
    if (row.parent_id && row.pending !== 1 && (await repo.get(actor.appId, row.parent_id)))
      await lookup.publishUpdated(actor, access.channel, row.parent_id);
    return { message };
  }

  async function softDelete(actor: Actor, access: ChannelAccess, row: MessageRow) {
    if (!row.deleted_at) {
      const now = deps.clock.now();
      await deps.writes.run(async (trx) => {
        await repo.update(trx, actor.appId, row.id, {
          type: 'deleted',
          deleted_at: now,
          updated_at: now,
        });
        if (!row.parent_id) return;
        await trx
          .updateTable('messages')
          .set({ deleted_reply_count: sql`deleted_reply_count + 1` })
          .where('app_id', '=', actor.appId)
          .where('id', '=', row.parent_id)
          .execute();
      });
    }
    const message = await lookup.eventMessage(actor.appId, row.id);
    await announceDeleted(actor, access, row, { message, user: message.user }, false);
    return { message: await lookup.viewedBy(actor, row.id) };
  }

  /**
   * Delete-for-me: the message leaves the deleter's own view only (type `deleted`, `deleted_for_me`), in every later
   * read and on their other connections; nobody else's view changes, so no one else hears of it.
   */
  async function deleteForUser(
    actor: Actor,
    access: ChannelAccess,
    row: MessageRow,
    deletedBy: string | undefined,
  ) {
    const userId = actor.isServer ? deletedBy : actor.userId;
    if (!userId) throw chatError.input('deleted_by is required to delete a message for a user');
    if (!actor.isServer && deletedBy && deletedBy !== actor.userId)
      throw chatError.notAllowed('cannot delete a message for another user');
    await repo.deleteForUser(actor.appId, userId, row.id, deps.clock.now());
    const message = await assembler.one(actor.appId, row, userId);
    events.toUser(
      actor.appId,
      userId,
      lookup.event('message.deleted', access.channel, {
        message,
        hard_delete: false,
        deleted_for_me: true,
        user: message.user,
      }),
    );
    return { message };
  }

  return {
    async remove(actor, messageId, { hard, deleteForMe, deletedBy }) {
      if (deleteForMe && hard)
        throw chatError.input('hard and delete_for_me cannot be used together');
      // The server deletes what only an author sees (a pending message it will not commit, a shadowed one).
      const { row, access } = await lookup.accessMessage(actor, messageId, {
        serverAsAuthor: true,
      });
      // Stream: a pending message goes entirely or not at all.
      if (row.pending === 1 && !hard)
        throw chatError.input('a pending message can only be hard deleted');
      if (deleteForMe) return deleteForUser(actor, access, row, deletedBy);
      checkMayDelete(actor, access, row);
      return hard ? hardDelete(actor, access, row) : softDelete(actor, access, row);
    },
  };
}
