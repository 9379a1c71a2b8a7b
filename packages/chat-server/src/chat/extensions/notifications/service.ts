import { randomUUID } from 'node:crypto';
import { chatError } from '../../../errors.ts';
import { requireServerSide, type Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { EventPublisher } from '../../core/events/publisher.ts';
import { parseObject } from '../../core/json.ts';
import type {
  Activity,
  ActivityListener,
  MentionedUsersResolver,
} from '../../core/extension-points.ts';
import type { MessageRow } from '../../core/messages/repo.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { UserResponse } from '../../core/users/serialize.ts';
import { plan, type ExtraMentions } from './recipients.ts';
import type { NotificationRow, NotificationsRepo, PageCursor } from './repo.ts';

/** The custom event a new notification is pushed as to every connection of its user. */
export const NOTIFICATION_EVENT = 'daohuu.notification.new';

export interface NotificationResponse {
  id: string;
  kind: string;
  cid: string | null;
  message_id: string | null;
  parent_id: string | null;
  actor_id: string | null;
  /** Who did it (name and image for the bell), when someone did. */
  actor: UserResponse | null;
  /** The channel's name, when it has one (the panel says where). */
  channel_name: string | null;
  created_at: string;
  read_at: string | null;
  /** What a notification the product server created says of itself (e.g. `{realm}`); `{}` for the others. */
  data: Record<string, string>;
}

export interface NotificationsService {
  /** Plugged into `ExtensionPoints.activity`. */
  onActivity: ActivityListener;
  list(
    actor: Actor,
    query: { limit?: number; before?: string; user_id?: string },
  ): Promise<{ notifications: NotificationResponse[]; unread_count: number }>;
  markRead(
    actor: Actor,
    body: { ids?: string[]; all?: boolean; user_id?: string },
  ): Promise<{ unread_count: number }>;
  /** Server-side only: a notification the product server tells a user of itself ("Đột phá!"). */
  create(
    actor: Actor,
    body: CreateNotificationInput,
  ): Promise<{ notification: NotificationResponse }>;
}

/** The kinds the product server may create; activity kinds (mention, reply, …) come from chat itself only. */
export const PRODUCT_NOTIFICATION_KINDS = ['breakthrough'] as const;

export interface CreateNotificationInput {
  user_id: string;
  kind: (typeof PRODUCT_NOTIFICATION_KINDS)[number];
  data?: Record<string, string>;
}

export interface NotificationsContext {
  deps: ChatDeps;
  repo: NotificationsRepo;
  users: UsersService;
  events: EventPublisher;
  /** Who messages mention beyond `mentioned_users` (`ExtensionPoints.mentionedUsers`: user groups). */
  mentions?: readonly MentionedUsersResolver[];
}

/**
 * Whose notifications a call is about: a user's own (naming someone else is refused), or for a server-side call
 * the `user_id` it must give. Anonymous users and guests have no notifications.
 */
function owner(actor: Actor, given: string | undefined): string {
  if (actor.isServer) {
    if (!given) throw chatError.input('user_id is required for server-side calls');
    return given;
  }
  if (!actor.userId || actor.role === 'anonymous' || actor.role === 'guest')
    throw chatError.notAllowed('only signed-in users have notifications');
  if (given && given !== actor.userId)
    throw chatError.notAllowed('a user may read and mark only their own notifications');
  return actor.userId;
}

async function responses(
  ctx: NotificationsContext,
  appId: string,
  rows: NotificationRow[],
): Promise<NotificationResponse[]> {
  const actorIds = rows.flatMap((r) => (r.actor_id ? [r.actor_id] : []));
  const users = await ctx.users.responses(appId, new Set(actorIds));
  const cids = [...new Set(rows.flatMap((r) => (r.cid ? [r.cid] : [])))];
  const channels =
    cids.length === 0
      ? []
      : await ctx.deps.db
          .selectFrom('channels')
          .select(['cid', 'name'])
          .where('app_id', '=', appId)
          .where('cid', 'in', cids)
          .execute();
  const names = new Map(channels.map((c) => [c.cid, c.name]));
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    cid: row.cid,
    message_id: row.message_id,
    parent_id: row.parent_id,
    actor_id: row.actor_id,
    actor: (row.actor_id && users.get(row.actor_id)) || null,
    channel_name: (row.cid && names.get(row.cid)) || null,
    created_at: row.created_at,
    read_at: row.read_at,
    data: parseData(row.data),
  }));
}

/** Stores one activity's notifications and pushes each to its user's connections with their unread count. */
async function record(
  ctx: NotificationsContext,
  activity: Activity,
  mentions: ExtraMentions | undefined,
): Promise<void> {
  const { deps } = ctx;
  const extra =
    mentions ??
    (activity.kind === 'message'
      ? await extraMentions(ctx, activity.appId, [activity.message])
      : undefined);
  const rows = (await plan(deps, activity, extra)).map((planned): NotificationRow => ({
    app_id: activity.appId,
    id: randomUUID(),
    user_id: planned.userId,
    kind: planned.kind,
    cid: planned.cid,
    message_id: planned.messageId,
    parent_id: planned.parentId,
    actor_id: planned.actorId,
    created_at: deps.clock.now(),
    read_at: null,
    data: null,
  }));
  await store(ctx, activity.appId, rows);
}

/** What every `mentionedUsers` resolver answers for these messages, merged by message id. */
async function extraMentions(
  ctx: NotificationsContext,
  appId: string,
  messages: readonly MessageRow[],
): Promise<Map<string, string[]>> {
  const merged = new Map<string, string[]>();
  if (messages.length === 0) return merged;
  for (const resolve of ctx.mentions ?? [])
    for (const [id, users] of await resolve(appId, messages))
      merged.set(id, [...(merged.get(id) ?? []), ...users]);
  return merged;
}

/**
 * Stores notifications of one app (dropping each user's oldest beyond the kept number) and pushes each stored one
 * to its user's connections. The writes are enqueued together, so the write queue commits them in one transaction
 * (each alone again if that fails), and the responses are built in one batch: an activity's notifications share
 * their actor and channel, read once rather than once per recipient.
 */
async function store(
  ctx: NotificationsContext,
  appId: string,
  rows: NotificationRow[],
): Promise<NotificationResponse[]> {
  const { deps, repo, events } = ctx;
  const written = await Promise.allSettled(
    rows.map((row) =>
      deps.writes.run(async (trx) => {
        await repo.insert(trx, row);
        await repo.trim(trx, row.app_id, row.user_id);
      }),
    ),
  );
  const stored = rows.filter((_, i) => written[i]!.status === 'fulfilled');
  const notifications = await responses(ctx, appId, stored);
  for (const [i, row] of stored.entries())
    events.toUser(row.app_id, row.user_id, {
      type: NOTIFICATION_EVENT,
      notification: notifications[i],
      unread_count: await repo.unreadCount(row.app_id, row.user_id),
      created_at: row.created_at,
    });
  const failed = written.find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
  return notifications;
}

/** The string fields of a notification's `data` column (core/json.ts `parseObject`: a corrupt value reads as {}). */
function parseData(text: string | null): Record<string, string> {
  return Object.fromEntries(
    Object.entries(parseObject(text)).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

/** Activities recorded per round at most: one mentions lookup serves them all. */
const MAX_ROUND = 100;

interface Waiting {
  activity: Activity;
  done: () => void;
}

/**
 * Records the activities waiting for one app, in the order they were reported: the mentions of all their messages
 * are looked up at once, then each is recorded alone, so one failure is logged and costs only its own notifications
 * (never the request that caused it). If the shared lookup fails, each message looks its mentions up alone.
 */
async function recordRound(ctx: NotificationsContext, appId: string, round: Waiting[]) {
  const messages = round.flatMap(({ activity }) =>
    activity.kind === 'message' ? [activity.message] : [],
  );
  const mentions = await extraMentions(ctx, appId, messages).catch(() => undefined);
  for (const { activity, done } of round) {
    await record(ctx, activity, mentions)
      .catch((error: unknown) =>
        ctx.deps.log.warn({ err: error, kind: activity.kind }, 'notification not recorded'),
      )
      .finally(done);
  }
}

/**
 * Activities are recorded one after another per app, in the order they were reported, so a user's notifications
 * arrive in the order things happened. Those reported while a round runs wait for the next one together.
 */
function createRecorder(ctx: NotificationsContext): ActivityListener {
  const queues = new Map<string, Waiting[]>();
  async function drain(appId: string, queue: Waiting[]) {
    while (queue.length > 0) await recordRound(ctx, appId, queue.splice(0, MAX_ROUND));
    queues.delete(appId);
  }
  return (activity) =>
    new Promise<void>((resolve) => {
      const queue = queues.get(activity.appId);
      if (queue) {
        queue.push({ activity, done: resolve });
        return;
      }
      const fresh = [{ activity, done: resolve }];
      queues.set(activity.appId, fresh);
      void drain(activity.appId, fresh);
    });
}

export function createNotificationsService(ctx: NotificationsContext): NotificationsService {
  const { repo, deps } = ctx;
  return {
    onActivity: createRecorder(ctx),
    async list(actor, query) {
      const userId = owner(actor, query.user_id);
      let before: PageCursor | undefined;
      if (query.before) {
        const from = await repo.get(actor.appId, query.before);
        if (!from || from.user_id !== userId)
          throw chatError.input('before must be the id of one of your notifications');
        before = { createdAt: from.created_at, id: from.id };
      }
      const rows = await repo.page(actor.appId, userId, query.limit ?? 30, before);
      return {
        notifications: await responses(ctx, actor.appId, rows),
        unread_count: await repo.unreadCount(actor.appId, userId),
      };
    },
    async markRead(actor, body) {
      const userId = owner(actor, body.user_id);
      if (!body.all && !body.ids?.length)
        throw chatError.input('ids must list notifications, or all must be true');
      const now = deps.clock.now();
      await deps.writes.run((trx) =>
        repo.markRead(trx, actor.appId, userId, body.all ? undefined : body.ids, now),
      );
      return { unread_count: await repo.unreadCount(actor.appId, userId) };
    },
    async create(actor, body) {
      requireServerSide(actor, 'creating a notification is allowed only server-side');
      const user = await ctx.users.getRow(actor.appId, body.user_id);
      if (!user || user.deleted_at) throw chatError.notFound(`user ${body.user_id} does not exist`);
      const row: NotificationRow = {
        app_id: actor.appId,
        id: randomUUID(),
        user_id: body.user_id,
        kind: body.kind,
        cid: null,
        message_id: null,
        parent_id: null,
        actor_id: null,
        created_at: deps.clock.now(),
        read_at: null,
        data: body.data ? JSON.stringify(body.data) : null,
      };
      const [notification] = await store(ctx, actor.appId, [row]);
      return { notification: notification! };
    },
  };
}
