import type { Transaction } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { ChannelUseCaseContext } from './context.ts';

export interface MessageWithFiles {
  user_id: string;
  attachments: string;
}

/**
 * Messages with attachments that a hard delete of `cid` (up to `until`) is about to remove. Read in the deleting
 * transaction, so a message sent meanwhile cannot lose its row yet keep its files.
 */
export async function attachmentsOf(
  ctx: Pick<ChannelUseCaseContext, 'hooks'>,
  trx: Transaction<Database>,
  target: { appId: string; cid: string; until?: string },
): Promise<MessageWithFiles[]> {
  if (ctx.hooks.messagesHardDeleted.length === 0) return [];
  let query = trx
    .selectFrom('messages')
    .select(['user_id', 'attachments'])
    .where('app_id', '=', target.appId)
    .where('cid', '=', target.cid)
    .where('attachments', '<>', '[]');
  if (target.until) query = query.where('created_at', '<=', target.until);
  return query.execute();
}

/** Tells the hard-delete listeners (file cleanup) of the messages a committed delete removed. */
export async function announceHardDeleted(
  ctx: Pick<ChannelUseCaseContext, 'hooks' | 'deps'>,
  appId: string,
  rows: MessageWithFiles[],
): Promise<void> {
  for (const row of rows) {
    const attachments = JSON.parse(row.attachments) as unknown;
    if (!Array.isArray(attachments)) continue;
    for (const listener of ctx.hooks.messagesHardDeleted) {
      // The rows are gone already; a file that cannot be removed must not fail the delete.
      await listener(appId, row.user_id, attachments).catch((error: unknown) =>
        ctx.deps.log.warn({ err: error, appId }, 'cleanup after a hard delete failed'),
      );
    }
  }
}
