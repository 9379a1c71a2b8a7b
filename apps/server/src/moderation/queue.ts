import type {
  ModeratedMessage,
  ModerationActionInput,
  ModerationActionRecord,
  ModerationQueueItem,
  ModerationQueuePage,
  ModerationReport,
} from '@daohuu/domain';
import type {
  MessageResponse,
  ReviewQueueItem,
  StreamChat,
  SubmitActionOptions,
} from 'stream-chat';
import { chatCall } from './chat-errors.ts';

const PAGE_SIZE = 10;
/** Messages fetched around a flagged one: enough to read the exchange, few enough for a phone screen. */
const CONTEXT_MESSAGES = 5;
const HISTORY_ITEMS = 10;
const MESSAGE_ENTITY = 'stream:chat:v1:message';

type Json = Record<string, unknown>;

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function asObject(value: unknown): Json {
  return value && typeof value === 'object' ? (value as Json) : {};
}

export function toModeratedMessage(message: MessageResponse | Json): ModeratedMessage {
  const raw = message as Json;
  const user = asObject(raw.user);
  return {
    id: String(raw.id ?? ''),
    text: typeof raw.text === 'string' ? raw.text : '',
    userId: text(user.id) ?? text(raw.user_id),
    userName: text(user.name),
    cid: text(raw.cid),
    createdAt: text(raw.created_at),
    deleted: raw.type === 'deleted' || Boolean(raw.deleted_at),
  };
}

/** An action-log entry (Stream's ActionLogResponse), read field by field: the log is typed `any` by the client. */
export function toActionRecord(entry: unknown): ModerationActionRecord {
  const raw = asObject(entry);
  return {
    type: text(raw.type) ?? text(raw.action_type) ?? 'unknown',
    reason: text(raw.reason),
    moderatorId: text(raw.user_id) ?? text(asObject(raw.user).id),
    createdAt: text(raw.created_at),
  };
}

function toReport(flag: unknown): ModerationReport {
  const raw = asObject(flag);
  const user = asObject(raw.user);
  return {
    reason: text(raw.reason) ?? '',
    reporterId: text(user.id) ?? text(raw.user_id),
    reporterName: text(user.name),
    createdAt: text(raw.created_at),
  };
}

/** The flagged message: embedded in the item when the chat server sends it, else read by id. */
async function flaggedMessage(
  client: StreamChat,
  item: ReviewQueueItem,
): Promise<ModeratedMessage | null> {
  const embedded = (item as ReviewQueueItem & { message?: MessageResponse }).message;
  if (embedded?.id) return toModeratedMessage(embedded);
  try {
    const { message } = await client.getMessage(item.entity_id, { show_deleted_message: true });
    return toModeratedMessage(message);
  } catch {
    // A hard-deleted message leaves the item without its text; the moderation payload still has it.
    const texts = item.moderation_payload?.texts ?? [];
    return {
      id: item.entity_id,
      text: texts.join('\n'),
      userId: item.entity_creator_id ?? null,
      userName: null,
      cid: null,
      createdAt: null,
      deleted: true,
    };
  }
}

/** A few messages around the flagged one, oldest first; just the message itself if the channel cannot be read. */
async function contextAround(
  client: StreamChat,
  message: ModeratedMessage,
): Promise<ModeratedMessage[]> {
  if (!message.cid) return [message];
  const [type, id] = message.cid.split(':', 2) as [string, string];
  try {
    const state = await client.channel(type, id).query({
      state: true,
      watch: false,
      presence: false,
      messages: { limit: CONTEXT_MESSAGES, id_around: message.id },
    });
    const around = state.messages.map(toModeratedMessage);
    return around.some((entry) => entry.id === message.id) ? around : [message];
  } catch {
    return [message];
  }
}

/** Actions taken on `userId` in items other than `exceptItemId`, newest first. */
async function userHistory(
  client: StreamChat,
  userId: string | null,
  exceptItemId: string,
): Promise<ModerationActionRecord[]> {
  if (!userId) return [];
  try {
    const { items } = await client.moderation.queryReviewQueue(
      { entity_creator_id: userId },
      [{ created_at: -1 }],
      { limit: HISTORY_ITEMS },
    );
    return items
      .filter((item) => item.id !== exceptItemId)
      .flatMap((item) => (item.actions_taken ?? []).map(toActionRecord))
      .sort((a, b) => (b.createdAt ?? '').localeCompare(a.createdAt ?? ''));
  } catch {
    return [];
  }
}

async function toQueueItem(
  client: StreamChat,
  item: ReviewQueueItem,
): Promise<ModerationQueueItem> {
  const isMessage = item.entity_type === MESSAGE_ENTITY;
  const message = isMessage ? await flaggedMessage(client, item) : null;
  const targetUserId = isMessage
    ? (item.entity_creator_id ?? message?.userId ?? null)
    : item.entity_id;
  const [context, history] = await Promise.all([
    message ? contextAround(client, message) : Promise.resolve([]),
    userHistory(client, targetUserId, item.id),
  ]);
  const reports = (item.flags ?? []).map(toReport);
  const creator = asObject((item as ReviewQueueItem & { entity_creator?: unknown }).entity_creator);
  return {
    id: item.id,
    kind: isMessage ? 'message' : 'user',
    status: item.status ?? (item.reviewed_at ? 'reviewed' : 'pending'),
    createdAt: text(item.created_at),
    targetUserId,
    targetUserName: message?.userName ?? text(creator.name),
    message,
    context,
    reports,
    actions: (item.actions_taken ?? []).map(toActionRecord),
    history,
  };
}

/** One page of the review queue, newest first, each item with its context. */
export async function readQueue(
  client: StreamChat,
  { status, next }: { status: 'pending' | 'reviewed'; next?: string },
): Promise<ModerationQueuePage> {
  const response = await chatCall(() =>
    client.moderation.queryReviewQueue({ reviewed: status === 'reviewed' }, [{ created_at: -1 }], {
      limit: PAGE_SIZE,
      ...(next ? { next } : {}),
    }),
  );
  const items = await Promise.all(response.items.map((item) => toQueueItem(client, item)));
  return { items, next: response.next ?? null };
}

/** The chat API's action for a screen action: a shadow ban is a ban with `shadow`. */
export function submitActionRequest(
  input: ModerationActionInput,
  moderatorId: string,
): { actionType: string; options: SubmitActionOptions } {
  const reason = input.reason || undefined;
  const timeout = input.durationMinutes ?? undefined;
  const base = { user_id: moderatorId };
  switch (input.action) {
    case 'ban':
    case 'shadow_ban':
      return {
        actionType: 'ban',
        options: { ...base, ban: { reason, timeout, shadow: input.action === 'shadow_ban' } },
      };
    case 'delete_message':
      return {
        actionType: 'delete_message',
        options: { ...base, delete_message: { hard_delete: false, reason } },
      };
    case 'unban':
      return { actionType: 'unban', options: { ...base, unban: { decision_reason: reason } } };
    case 'restore':
      return { actionType: 'restore', options: { ...base, restore: { decision_reason: reason } } };
    case 'mark_reviewed':
      return {
        actionType: 'mark_reviewed',
        options: { ...base, mark_reviewed: { decision_reason: reason } },
      };
  }
}

export async function submitAction(
  client: StreamChat,
  input: ModerationActionInput,
  moderatorId: string,
): Promise<void> {
  const { actionType, options } = submitActionRequest(input, moderatorId);
  await chatCall(() => client.moderation.submitAction(actionType, input.itemId, options));
}
