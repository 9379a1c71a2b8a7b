import type { Actor } from '../access/access.ts';
import type { ChannelsService } from '../channels/service.ts';
import type { JsonObject } from '../json.ts';
import { channelKeysOf } from '../wire/events.ts';
import { itemOutcome } from './delete-channels.ts';
import type { TaskRunner } from './runner.ts';

/** Operations whose `members` are the people added, removed or given a role: they need some. */
const MEMBERSHIP_OPERATIONS = [
  'addMembers',
  'removeMembers',
  'inviteMembers',
  'assignRoles',
  'addModerators',
  'demoteModerators',
] as const;

/** Operations that act on each channel's own members: with no `members`, on all of them. */
const PER_MEMBER_OPERATIONS = ['hide', 'show', 'archive', 'unarchive'] as const;

/** What PUT /channels/batch (stream-chat's ChannelBatchUpdater) can do to every channel its filter matches. */
export const BATCH_OPERATIONS = [
  ...MEMBERSHIP_OPERATIONS,
  ...PER_MEMBER_OPERATIONS,
  'updateData',
] as const;

export type BatchOperation = (typeof BATCH_OPERATIONS)[number];

export const NEEDS_MEMBERS: ReadonlySet<BatchOperation> = new Set(MEMBERSHIP_OPERATIONS);

/** Stream's limit on `members` in one batch request. */
export const MAX_BATCH_MEMBERS = 100;

/** How many channels a batch reads and updates at a time. */
const CHUNK = 25;

export interface BatchMember {
  user_id: string;
  channel_role?: string;
}

/** A batch request as the route checked it. */
export interface ChannelBatchRequest {
  operation: BatchOperation;
  /** Channels are those among `cids` (when given) and of `types` (when given). */
  filter: { cids?: string[]; types?: string[] };
  members?: BatchMember[];
  /** updateData: channel fields, set as a partial update would. */
  data?: JsonObject;
  /** updateData: custom keys (dotted paths) merged into each channel's custom data. */
  custom_set?: JsonObject;
  /** updateData: custom keys (dotted paths) removed. */
  custom_unset?: string[];
}

/** The users a per-member operation acts for in `cid`: those named who are members, or every member. */
async function targetsIn(
  channels: Pick<ChannelsService, 'repo'>,
  appId: string,
  cid: string,
  members: readonly BatchMember[] | undefined,
): Promise<string[]> {
  if (!members?.length) return channels.repo.memberIds(appId, cid);
  return [
    ...(await channels.repo.membersAmong(
      appId,
      cid,
      members.map((m) => m.user_id),
    )),
  ];
}

/** One channel of the batch, changed through the same use case a single-channel call runs (events included). */
async function applyTo(
  channels: ChannelsService,
  server: Actor,
  cid: string,
  request: ChannelBatchRequest,
): Promise<void> {
  const { type, id } = channelKeysOf(cid);
  const members = (request.members ?? []) as unknown as JsonObject[];
  const ids = members.map((m) => m.user_id) as string[];
  const update = (body: JsonObject) => channels.update(server, type, id, body);
  switch (request.operation) {
    case 'addMembers':
      return void (await update({ add_members: members }));
    case 'removeMembers':
      return void (await update({ remove_members: ids }));
    case 'inviteMembers':
      return void (await update({ invites: members }));
    case 'assignRoles':
      return void (await update({ assign_roles: members }));
    case 'addModerators':
      return void (await update({ add_moderators: ids }));
    case 'demoteModerators':
      return void (await update({ demote_moderators: ids }));
    case 'updateData':
      return void (await channels.updatePartial(server, type, id, {
        set: { ...request.data, ...request.custom_set },
        unset: request.custom_unset ?? [],
      }));
    case 'hide':
    case 'show':
    case 'archive':
    case 'unarchive': {
      for (const userId of await targetsIn(channels, server.appId, cid, request.members)) {
        if (request.operation === 'hide')
          await channels.hide(server, type, id, { user_id: userId });
        else if (request.operation === 'show')
          await channels.show(server, type, id, { user_id: userId });
        else
          await channels.updateMember(server, type, id, userId, {
            set: { archived: request.operation === 'archive' },
          });
      }
      return;
    }
  }
}

/**
 * Runs a batch as a background task, as Stream does: the channels the filter matches when the task runs, walked in
 * cid order a chunk at a time. A channel that fails (a member who does not exist, a role refused) does not stop the
 * others; the task's result counts the successes and lists the failures.
 */
export function startChannelBatch(
  runner: TaskRunner,
  channels: ChannelsService,
  actor: Actor,
  request: ChannelBatchRequest,
  clock: { now(): string },
): Promise<string> {
  const server: Actor = { ...actor, isServer: true, userId: null, role: 'admin' };
  return runner.start(
    actor.appId,
    'update-channels-batch',
    request as unknown as JsonObject,
    async () => {
      let succeeded = 0;
      const failed: JsonObject[] = [];
      let after: string | null = null;
      for (;;) {
        const cids = await channels.repo.cidsMatching(actor.appId, request.filter, after, CHUNK);
        for (const cid of cids) {
          try {
            await applyTo(channels, server, cid, request);
            succeeded += 1;
          } catch (error) {
            const { error: reason } = itemOutcome(error);
            failed.push({ cid, error: reason ?? null });
          }
        }
        if (cids.length < CHUNK) break;
        after = cids[cids.length - 1]!;
      }
      return {
        status: 'completed',
        operation: request.operation,
        success_channels_count: succeeded,
        failed_channels: failed,
        finished_at: clock.now(),
      };
    },
  );
}
