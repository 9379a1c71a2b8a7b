import { chatError } from '../../../errors.ts';
import type {
  BeforeMessageStored,
  MentionedUsersResolver,
  MessageFields,
} from '../../core/extension-points.ts';
import type { UserGroupsRepo } from './repo.ts';
import { GROUP_LIMITS } from './rules.ts';
import { toGroupResponse } from './service.ts';

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
 * Records the groups a new message mentions, in its insert transaction. Like `mentioned_users`, ids naming no group
 * are dropped rather than refused: a group deleted while the message was typed must not fail the send.
 */
export function recordGroupMentions(repo: UserGroupsRepo): BeforeMessageStored {
  return async ({ actor, row, input, system }) => {
    if (system) return undefined;
    const wanted = readGroupIds(input.mentioned_group_ids);
    if (wanted.length === 0) return undefined;
    const found = new Set((await repo.getMany(actor.appId, wanted)).map((g) => g.id));
    const ids = wanted.filter((id) => found.has(id));
    const messageId = row.id;
    if (ids.length === 0 || typeof messageId !== 'string') return undefined;
    return (trx) => repo.recordMentions(trx, actor.appId, messageId, ids);
  };
}

/**
 * `mentioned_group_ids` and `mentioned_groups` (Stream's UserGroupResponse, without members) on every message that
 * mentions a group; a group deleted since keeps its id and leaves `mentioned_groups`.
 */
export function groupMentionFields(repo: UserGroupsRepo): MessageFields {
  return async (appId, rows) => {
    const fields = new Map<string, Record<string, unknown>>();
    // A deleted message mentions nobody any more, as its `mentioned_users` reads empty.
    const live = rows.filter((r) => !r.deleted_at).map((r) => r.id);
    const mentions = await repo.mentionsOf(appId, live);
    if (mentions.length === 0) return fields;
    const groups = new Map(
      (await repo.getMany(appId, [...new Set(mentions.map((m) => m.group_id))])).map((g) => [
        g.id,
        toGroupResponse(g),
      ]),
    );
    const byMessage = new Map<string, string[]>();
    for (const m of mentions)
      byMessage.set(m.message_id, [...(byMessage.get(m.message_id) ?? []), m.group_id]);
    for (const [messageId, ids] of byMessage)
      fields.set(messageId, {
        mentioned_group_ids: ids,
        mentioned_groups: ids.flatMap((id) => groups.get(id) ?? []),
      });
    return fields;
  };
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
