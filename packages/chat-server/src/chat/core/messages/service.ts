import type { Actor } from '../access/access.ts';
import type { ChannelRow } from '../channels/repo.ts';
import type { ChannelAccess } from '../channels/service.ts';
import type { JsonObject } from '../json.ts';
import type { InMessageTransaction } from '../extension-points.ts';
import { createAnnounceNew } from './announce.ts';
import { createCommitUseCase } from './commit.ts';
import { createMessageLookup, type MessagesContext } from './context.ts';
import { createDeleteUseCases } from './delete.ts';
import { createMessageInsert } from './insert.ts';
import { createReadUseCases } from './read.ts';
import type { MessageRow, MessagesRepo } from './repo.ts';
import { createSendUseCases } from './send.ts';
import type { MessageResponse } from './serialize.ts';
import { createUpdateUseCases } from './update.ts';

export type { MessagesContext } from './context.ts';

export interface MessagesService {
  repo: MessagesRepo;
  send(
    actor: Actor,
    typeName: string,
    id: string,
    body: JsonObject,
  ): Promise<{ message: MessageResponse; pending_message_metadata?: JsonObject }>;
  /** A system message from a channel update/truncate carrying `message`. */
  sendSystem(actor: Actor, channel: ChannelRow, message: JsonObject): Promise<MessageResponse>;
  update(actor: Actor, messageId: string, body: JsonObject): Promise<{ message: MessageResponse }>;
  partialUpdate(
    actor: Actor,
    messageId: string,
    body: JsonObject,
  ): Promise<{ message: MessageResponse }>;
  remove(
    actor: Actor,
    messageId: string,
    options: { hard: boolean; deleteForMe: boolean; deletedBy?: string },
  ): Promise<{ message: MessageResponse | Record<string, unknown> }>;
  get(actor: Actor, messageId: string): Promise<{ message: MessageResponse }>;
  getMany(
    actor: Actor,
    typeName: string,
    id: string,
    ids: string[],
  ): Promise<{ messages: MessageResponse[] }>;
  replies(
    actor: Actor,
    parentId: string,
    query: JsonObject,
  ): Promise<{ messages: MessageResponse[] }>;
  pinned(
    actor: Actor,
    typeName: string,
    id: string,
    payload: JsonObject,
  ): Promise<{ messages: MessageResponse[] }>;
  /** Loads a message and the actor's access to its channel (for reactions, threads). */
  accessMessage(
    actor: Actor,
    messageId: string,
  ): Promise<{ row: MessageRow; access: ChannelAccess }>;
  /** The message as carried by shared events (no per-user own_reactions). */
  eventMessage(appId: string, messageId: string): Promise<MessageResponse>;
  /**
   * Makes a pending message everyone's (commit.ts): `release` runs in the transaction that records what its send left
   * undone, then it is announced as new. `row` is the message as the caller just read it. Answers the message as
   * events carry it.
   */
  publishCommitted(
    actor: Actor,
    row: MessageRow,
    release: InMessageTransaction,
  ): Promise<MessageResponse>;
}

/**
 * The message use cases, one file each (send, update, delete, read), over shared lookups. Extensions see messages
 * through the `beforeMessageStored` and `messageHardDeleted` points of `context.points`.
 */
export function createMessagesService(context: MessagesContext): MessagesService {
  const lookup = createMessageLookup(context);
  const useCases = { ...context, lookup };
  const insert = createMessageInsert(context);
  const announce = createAnnounceNew(useCases);
  return {
    repo: context.repo,
    accessMessage: lookup.accessMessage,
    eventMessage: lookup.eventMessage,
    ...createSendUseCases({ ...useCases, insert, announce }),
    ...createCommitUseCase({ ...useCases, announce }),
    ...createUpdateUseCases(useCases),
    ...createDeleteUseCases(useCases),
    ...createReadUseCases(useCases),
  };
}
