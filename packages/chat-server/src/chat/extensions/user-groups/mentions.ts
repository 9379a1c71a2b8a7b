import { chatError } from '../../../errors.ts';
import type {
  BeforeMessageStored,
  MentionedUsersResolver,
  MessageFields,
} from '../../core/extension-points.ts';
import type { UserGroupRow, UserGroupsRepo } from './repo.ts';
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

export interface GroupMentions {
  /** Plugged into `ExtensionPoints.beforeMessageStored`. */
  beforeStored: BeforeMessageStored;
  /** Plugged into `ExtensionPoints.messageFields`. */
  fields: MessageFields;
}

export function createGroupMentions(repo: UserGroupsRepo): GroupMentions {
  // A send's own answer is assembled before its commit (messages/store.ts), when nothing keyed by its id is stored
  // yet: its groups wait here, as they were read while checking the send, until the send is over.
  const checked = new Map<string, UserGroupRow[]>();
  const key = (appId: string, messageId: string) => `${appId}\n${messageId}`;
  return {
    // Like `mentioned_users`, ids naming no group are dropped rather than refused: a group deleted while the message
    // was typed must not fail the send.
    beforeStored: async ({ actor, row, input, system, onSettled }) => {
      if (system) return undefined;
      const wanted = readGroupIds(input.mentioned_group_ids);
      if (wanted.length === 0) return undefined;
      const found = new Map((await repo.getMany(actor.appId, wanted)).map((g) => [g.id, g]));
      const groups = wanted.flatMap((id) => found.get(id) ?? []);
      if (groups.length === 0) return undefined;
      const messageKey = key(actor.appId, row.id);
      checked.set(messageKey, groups);
      // Stored or refused (a later check, a duplicate id), the send leaves nothing behind.
      onSettled(() => checked.delete(messageKey));
      const ids = groups.map((g) => g.id);
      return (trx) => repo.recordMentions(trx, actor.appId, row.id, ids);
    },
    fields: async (appId, rows, _viewer, { fresh }) => {
      // A deleted message mentions nobody any more, as its `mentioned_users` reads empty.
      const live = rows.filter((r) => !r.deleted_at);
      if (fresh) {
        const fields = new Map<string, Record<string, unknown>>();
        for (const row of live) {
          const groups = checked.get(key(appId, row.id));
          if (groups)
            fields.set(
              row.id,
              mentionFields(
                groups.map((g) => g.id),
                groups,
              ),
            );
        }
        return fields;
      }
      const byMessage = new Map<string, string[]>();
      const mentions = await repo.mentionsOf(
        appId,
        live.map((r) => r.id),
      );
      for (const m of mentions)
        byMessage.set(m.message_id, [...(byMessage.get(m.message_id) ?? []), m.group_id]);
      return groupFields(repo, appId, byMessage);
    },
  };
}

/** A message's group fields: the ids it mentions, and the groups among them that still exist. */
function mentionFields(ids: string[], groups: readonly UserGroupRow[]): Record<string, unknown> {
  return { mentioned_group_ids: ids, mentioned_groups: groups.map((g) => toGroupResponse(g)) };
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
  const groups = new Map((await repo.getMany(appId, groupIds)).map((g) => [g.id, g]));
  for (const [messageId, ids] of byMessage)
    fields.set(
      messageId,
      mentionFields(
        ids,
        ids.flatMap((id) => groups.get(id) ?? []),
      ),
    );
  return fields;
}

/**
 * A group mention reaches the group's members who are members of the message's channel, as on Stream. One lookup of
 * the mentions for the whole batch; the members only for the messages that mention a group.
 */
export function groupMentionedUsers(repo: UserGroupsRepo): MentionedUsersResolver {
  return async (appId, messages) => {
    const result = new Map<string, string[]>();
    const groupsOf = new Map<string, string[]>();
    for (let i = 0; i < messages.length; i += MENTIONS_CHUNK) {
      const ids = messages.slice(i, i + MENTIONS_CHUNK).map((m) => m.id);
      for (const m of await repo.mentionsOf(appId, ids))
        groupsOf.set(m.message_id, [...(groupsOf.get(m.message_id) ?? []), m.group_id]);
    }
    for (const message of messages) {
      const groups = groupsOf.get(message.id);
      if (groups) result.set(message.id, await repo.channelMembersIn(appId, message.cid, groups));
    }
    return result;
  };
}

/** Message ids per mentions lookup: well under both databases' parameter limits. */
const MENTIONS_CHUNK = 500;
