import { sql, type Insertable, type Transaction } from 'kysely';
import type { Clock } from '../../../db/clock.ts';
import type { Database, MessagesTable } from '../../../db/schema.ts';
import { reusableQuery } from '../../../db/reusable-query.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { ChannelRow } from '../channels/repo.ts';
import type { ChannelAccess } from '../channels/service.ts';
import type { InMessageTransaction } from '../extension-points.ts';
import type { MessagesContext } from './context.ts';
import { messageHtml } from './html.ts';
import { insertMessageRow } from './insert-statement.ts';
import type { MessageRow } from './repo.ts';
import type { MessageResponse } from './serialize.ts';

// Run in every send's transaction: compiled once (see reusable-query.ts).
const bumpLastMessageAt = reusableQuery<[string, string, string], unknown>(
  3,
  (executor, at, appId, cid) =>
    executor
      .updateTable('channels')
      .set({ last_message_at: at })
      .where('app_id', '=', appId)
      .where('cid', '=', cid),
);
const unhideMembers = reusableQuery<[string, string], unknown>(2, (executor, appId, cid) =>
  executor
    .updateTable('members')
    .set({ hidden: 0 })
    .where('app_id', '=', appId)
    .where('cid', '=', cid)
    .where('hidden', '=', 1),
);

/** A checked message ready to be written, with what its transaction must also do. */
export interface MessageToStore {
  actor: Actor;
  access: ChannelAccess;
  row: Insertable<MessagesTable>;
  /** The parent of a reply (its counters and thread rows change in the same transaction). */
  parent: MessageRow | undefined;
  /** Work the `beforeMessageStored` checks handed back. */
  inTransaction: InMessageTransaction[];
  system: boolean;
}

export interface StoredMessage {
  row: MessageRow;
  /** The message as its `message.new` carries it (a new message has no reactions, so it is everyone's copy). */
  message: MessageResponse;
  /** The channel as it is after the send (`last_message_at` moved when the message shows in the channel). */
  channel: ChannelRow;
}

export type MessageStore = (input: MessageToStore) => Promise<StoredMessage>;

/** A reply bumps its parent's reply_count, joins the thread's participants and moves the thread read state. */
async function recordReply(
  context: Pick<MessagesContext, 'threads' | 'reads'>,
  trx: Transaction<Database>,
  row: Insertable<MessagesTable>,
  parent: MessageRow,
): Promise<void> {
  const { app_id: appId, cid, user_id: userId, created_at: at } = row;
  await trx
    .updateTable('messages')
    .set({ reply_count: sql`reply_count + 1` })
    .where('app_id', '=', appId)
    .where('id', '=', parent.id)
    .execute();
  await context.threads.recordReply(trx, {
    appId,
    cid,
    parentId: parent.id,
    parentUserId: parent.user_id,
    userId,
    at,
    countsReply: true,
  });
  // Thread read state: the parent's author has read nothing of the thread yet; a replier has read up to their reply.
  await context.reads.ensure(trx, {
    app_id: appId,
    cid,
    user_id: parent.user_id,
    thread_id: parent.id,
    last_read: parent.created_at,
  });
  await context.reads.upsert(trx, {
    app_id: appId,
    cid,
    user_id: userId,
    thread_id: parent.id,
    last_read: at,
    last_read_message_id: null,
  });
}

/** Stamps the row, its stored copy and its response with one time, taken with no await before the enqueue. */
function stamp(
  clock: Clock,
  targets: { created_at?: string; updated_at?: string; pinned_at?: string | null }[],
): string {
  const stamped = clock.now();
  for (const target of targets) {
    target.created_at = stamped;
    target.updated_at = stamped;
    if (target.pinned_at) target.pinned_at = stamped;
  }
  return stamped;
}

/** What a message shown to the channel changes beside its row: the channel's last message time and hidden members. */
async function recordInChannel(
  trx: Transaction<Database>,
  {
    appId,
    cid,
    at,
    bumpsChannel,
  }: { appId: string; cid: string; at: string; bumpsChannel: boolean },
): Promise<void> {
  if (bumpsChannel) await bumpLastMessageAt.execute(trx, at, appId, cid);
  // A new message brings a hidden channel back for every member, as in Stream.
  await unhideMembers.execute(trx, appId, cid);
}

/**
 * What a pending message (chat/extensions/pending-messages) left undone when it was stored, done in the transaction
 * that commits it: the channel's last message time (never moved back), hidden members, and for a reply its parent's
 * counters, thread and read states. Nobody else could tell the message existed before this.
 */
export async function recordCommitted(
  context: Pick<MessagesContext, 'threads' | 'reads'>,
  trx: Transaction<Database>,
  {
    row,
    parent,
    channel,
  }: { row: MessageRow; parent: MessageRow | undefined; channel: ChannelRow },
): Promise<string | null> {
  const shown = !row.parent_id || row.show_in_channel === 1;
  const later = !channel.last_message_at || channel.last_message_at < row.created_at;
  await recordInChannel(trx, {
    appId: row.app_id,
    cid: row.cid,
    at: row.created_at,
    bumpsChannel: shown && later,
  });
  if (parent) await recordReply(context, trx, row, parent);
  return shown && later ? row.created_at : channel.last_message_at;
}

/** Writes a checked message: the row, the channel's last message time, unhidden members and the reply counters. */
export function createMessageStore(
  context: Pick<MessagesContext, 'deps' | 'repo' | 'threads' | 'reads' | 'assembler'>,
): MessageStore {
  const { deps, repo, assembler } = context;
  return async ({ actor, access, row, parent, inTransaction, system }) => {
    const channel = access.channel;
    // Rendered here, after every extension had its say on the text.
    row.html = messageHtml(row.text ?? '');
    // A pending message changes nothing anyone else could see until it is committed (recordCommitted).
    const pending = row.pending === 1;
    const bumpsChannel =
      !pending &&
      (!row.parent_id || row.show_in_channel === 1) &&
      !(system && access.type.config.skip_last_msg_update_for_system_msgs);
    const saved = {
      pinned_at: null,
      pinned_by_id: null,
      pin_expires: null,
      deleted_at: null,
      parent_id: null,
      quoted_message_id: null,
      ...row,
    } as MessageRow;
    // Built before the commit, so the event can go out right after it with no further await: sends committed in one
    // batch are then announced in commit order.
    const message = await assembler.fresh(actor.appId, saved);
    // Stamped only now: timestamp order = enqueue order = commit order.
    const stamped = stamp(deps.clock, [row, saved, message]);
    try {
      await deps.writes.run(async (trx) => {
        await insertMessageRow(trx, row);
        for (const work of inTransaction) await work(trx);
        if (pending) return;
        await recordInChannel(trx, {
          appId: actor.appId,
          cid: channel.cid,
          at: stamped,
          bumpsChannel,
        });
        if (parent) await recordReply(context, trx, row, parent);
      });
    } catch (error) {
      // A duplicate id is caught by the primary key at commit.
      if (await repo.get(actor.appId, row.id))
        throw chatError.input(`message with id ${row.id} already exists`);
      throw error;
    }
    return {
      row: saved,
      message,
      channel: bumpsChannel ? { ...channel, last_message_at: stamped } : channel,
    };
  };
}
