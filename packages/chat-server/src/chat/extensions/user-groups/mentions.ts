import { chatError } from '../../../errors.ts';
import type {
  BeforeMessageStored,
  MentionedUsersResolver,
  MessageFields,
} from '../../core/extension-points.ts';
import type { UserGroupsRepo } from './repo.ts';
import { GROUP_LIMITS } from './rules.ts';
import { toGroupResponse } from './serialize.ts';

/** `mentioned_group_ids` as sent: absent, or an array of group ids (deduplicated, in the order given). */
function readGroupIds(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((id) => typeof id === 'string'))
    throw chatError.input('mentioned_group_ids must be an array of user group ids');
  const ids = [...new Set(value as string[])];
  if (ids.length > GROUP_LIMITS.mentionsPerMessage)
    throw chatError.input(
      `mentioned_group_ids may name at most ${GROUP_LIMITS.mentionsPerMessage} user groups`,
    );
  return ids;
}

/**
 * The groups of sends checked but not yet committed, by app and message id. A send's own answer is assembled before
 * its commit (messages/store.ts), when nothing keyed by its id is stored yet, so its fields come from here; the
 * insert transaction forgets the entry. A send that fails between the two leaves one entry behind, hence the cap.
 */
const PENDING_CAP = 10_000;

export interface GroupMentions {
  /** Plugged into `ExtensionPoints.beforeMessageStored`. */
  beforeStored: BeforeMessageStored;
  /** Plugged into `ExtensionPoints.messageFields`. */
  fields: MessageFields;
}

export function createGroupMentions(repo: UserGroupsRepo): GroupMentions {
  const pending = new Map<string, string[]>();
  const key = (appId: string, messageId: string) => `${appId}\n${messageId}`;
  return {
    // Like `mentioned_users`, ids naming no group are dropped rather than refused: a group deleted while the message
    // was typed must not fail the send.
    beforeStored: async ({ actor, row, input, system }) => {
      if (system) return undefined;
      const wanted = readGroupIds(input.mentioned_group_ids);
      const messageId = row.id;
      if (wanted.length === 0 || typeof messageId !== 'string') return undefined;
      const found = new Set((await repo.getMany(actor.appId, wanted)).map((g) => g.id));
      const ids = wanted.filter((id) => found.has(id));
      if (ids.length === 0) return undefined;
      if (pending.size >= PENDING_CAP) pending.delete(pending.keys().next().value!);
      pending.set(key(actor.appId, messageId), ids);
      return async (trx) => {
        pending.delete(key(actor.appId, messageId));
        await repo.recordMentions(trx, actor.appId, messageId, ids);
      };
    },
    fields: async (appId, rows, _viewer, { fresh }) => {
      // A deleted message mentions nobody any more, as its `mentioned_users` reads empty.
      const live = rows.filter((r) => !r.deleted_at);
      const byMessage = new Map<string, string[]>();
      if (fresh) {
        for (const row of live) {
          const ids = pending.get(key(appId, row.id));
          if (ids) byMessage.set(row.id, ids);
        }
      } else {
        const mentions = await repo.mentionsOf(
          appId,
          live.map((r) => r.id),
        );
        for (const m of mentions)
          byMessage.set(m.message_id, [...(byMessage.get(m.message_id) ?? []), m.group_id]);
      }
      return groupFields(repo, appId, byMessage);
    },
  };
}

/**
 * `mentioned_group_ids` and `mentioned_groups` (Stream's UserGroupResponse, without members) on every message that
 * mentions a group; a group deleted since keeps its id and leaves `mentioned_groups`.
 */
async function groupFields(
  repo: UserGroupsRepo,
  appId: string,
  byMessage: Map<string, string[]>,
): Promise<Map<string, Record<string, unknown>>> {
  const fields = new Map<string, Record<string, unknown>>();
  if (byMessage.size === 0) return fields;
  const groupIds = [...new Set([...byMessage.values()].flat())];
  const groups = new Map(
    (await repo.getMany(appId, groupIds)).map((g) => [g.id, toGroupResponse(g)]),
  );
  for (const [messageId, ids] of byMessage)
    fields.set(messageId, {
      mentioned_group_ids: ids,
      mentioned_groups: ids.flatMap((id) => groups.get(id) ?? []),
    });
  return fields;
}

/** A group mention reaches the group's members who are members of the message's channel, as on Stream. */
export function groupMentionedUsers(repo: UserGroupsRepo): MentionedUsersResolver {
  return async (appId, message) => {
    const mentions = await repo.mentionsOf(appId, [message.id]);
    if (mentions.length === 0) return [];
    return repo.channelMembersIn(
      appId,
      message.cid,
      mentions.map((m) => m.group_id),
    );
  };
}
