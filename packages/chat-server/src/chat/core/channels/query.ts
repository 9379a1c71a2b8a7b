import { isoFromMicros } from '../../../db/clock.ts';
import { sql, type RawBuilder } from 'kysely';
import type { SqlDialectKind } from '../../../db/schema.ts';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import { openTypeNames } from '../access/visibility.ts';
import type { ChannelTypeLookup } from '../channel-types.ts';
import type { ChannelHiddenCondition } from '../extension-points.ts';
import type { JsonObject } from '../json.ts';
import { compileFilter, type FieldSpec, type Operator } from '../query/filter.ts';
import { compileSort, parseSort } from '../query/sort.ts';

/*
 * queryChannels runs over `channels c LEFT JOIN members m` where m is the viewer's own membership, so per-viewer
 * fields (pinned, archived, hidden, joined, muted) are plain conditions on m.
 */

function idList(field: string, op: Operator, value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  if (list.length === 0 && op === '$eq')
    throw chatError.input(`${field} $eq needs at least one user id`);
  if (!list.every((v) => typeof v === 'string')) throw chatError.input(`${field} expects user ids`);
  return list as string[];
}

function membersField(): FieldSpec {
  return {
    kind: 'custom',
    build(op, value) {
      const ids = idList('members', op, value);
      const exists = (id: string) =>
        sql<boolean>`exists (select 1 from members mm where mm.app_id = c.app_id and mm.cid = c.cid and mm.user_id = ${id})`;
      switch (op) {
        case '$in':
          if (ids.length === 0) return sql<boolean>`1 = 0`;
          return sql<boolean>`exists (select 1 from members mm where mm.app_id = c.app_id and mm.cid = c.cid and mm.user_id in (${sql.join(ids)}))`;
        case '$nin':
          if (ids.length === 0) return sql<boolean>`1 = 1`;
          return sql<boolean>`not exists (select 1 from members mm where mm.app_id = c.app_id and mm.cid = c.cid and mm.user_id in (${sql.join(ids)}))`;
        case '$eq': {
          // Exactly this member set (Stream's `members: [a, b]` / `{$eq: [...]}`). One count rather than one EXISTS
          // per id keeps the SQL flat however long the list.
          if (!Array.isArray(value)) return exists(ids[0]!);
          const distinct = [...new Set(ids)];
          return sql<boolean>`(c.member_count = ${ids.length} and (select count(*) from members mm where mm.app_id = c.app_id and mm.cid = c.cid and mm.user_id in (${sql.join(distinct)})) = ${distinct.length})`;
        }
        default:
          throw chatError.input(`operator ${op} is not supported on members`);
      }
    },
  };
}

/**
 * A client may filter on `disabled` only to leave disabled channels out: asking for them is reading them, which
 * Stream refuses with its ReadDisabledChannel permission (a client reads no disabled channel).
 */
function clientDisabledField(actor: Actor): FieldSpec {
  return {
    kind: 'custom',
    build(op, value) {
      if ((op !== '$eq' && op !== '$ne') || typeof value !== 'boolean')
        throw chatError.input('disabled supports $eq with a boolean');
      if ((op === '$eq') === value)
        throw chatError.notAllowed(
          `user ${actor.userId ?? 'anonymous'} is not allowed to perform action ReadDisabledChannel`,
        );
      return sql<boolean>`(c.disabled = 0)`;
    },
  };
}

function booleanField(name: string, whenTrue: RawBuilder<boolean>): FieldSpec {
  return {
    kind: 'custom',
    build(op, value) {
      if ((op !== '$eq' && op !== '$ne') || typeof value !== 'boolean') {
        throw chatError.input(`${name} supports $eq with a boolean`);
      }
      const wanted = op === '$eq' ? value : !value;
      return wanted ? whenTrue : sql<boolean>`not ${whenTrue}`;
    },
  };
}

function mentionsKey(filter: unknown, key: string): boolean {
  if (Array.isArray(filter)) return filter.some((f) => mentionsKey(f, key));
  if (typeof filter !== 'object' || filter === null) return false;
  return Object.entries(filter).some(
    ([k, v]) => k === key || (k.startsWith('$') && mentionsKey(v, key)),
  );
}

/** Hidden for the viewer: hidden by themselves, or by an extension's rule (a blocked one-to-one conversation). */
function hiddenFor(
  actor: Actor,
  conditions: readonly ChannelHiddenCondition[],
): RawBuilder<boolean> {
  const own = sql<boolean>`coalesce(m.hidden, 0) = 1`;
  if (!actor.userId || conditions.length === 0) return sql<boolean>`(${own})`;
  const viewerId = actor.userId;
  return sql<boolean>`(${sql.join([own, ...conditions.map((c) => c(viewerId))], sql` or `)})`;
}

export function compileChannelFilter(
  dialect: SqlDialectKind,
  actor: Actor,
  filter: JsonObject,
  types?: ChannelTypeLookup,
  hiddenConditions: readonly ChannelHiddenCondition[] = [],
): RawBuilder<boolean> {
  const hidden = hiddenFor(actor, hiddenConditions);
  const fields: Record<string, FieldSpec> = {
    type: { kind: 'column', ref: 'c.type', type: 'text' },
    id: { kind: 'column', ref: 'c.id', type: 'text' },
    cid: { kind: 'column', ref: 'c.cid', type: 'text' },
    name: { kind: 'column', ref: 'c.name_search', type: 'text', lowercased: true },
    image: { kind: 'column', ref: 'c.image', type: 'text' },
    team: { kind: 'column', ref: 'c.team', type: 'text' },
    created_by_id: { kind: 'column', ref: 'c.created_by_id', type: 'text' },
    frozen: { kind: 'column', ref: 'c.frozen', type: 'boolean' },
    disabled: actor.isServer
      ? { kind: 'column', ref: 'c.disabled', type: 'boolean' }
      : clientDisabledField(actor),
    member_count: { kind: 'column', ref: 'c.member_count', type: 'number' },
    last_message_at: { kind: 'column', ref: 'c.last_message_at', type: 'date' },
    created_at: { kind: 'column', ref: 'c.created_at', type: 'date' },
    updated_at: { kind: 'column', ref: 'c.updated_at', type: 'date' },
    members: membersField(),
    pinned: booleanField('pinned', sql<boolean>`(m.pinned_at is not null)`),
    archived: booleanField('archived', sql<boolean>`(m.archived_at is not null)`),
    hidden: booleanField('hidden', hidden),
    joined: booleanField(
      'joined',
      sql<boolean>`(m.user_id is not null and coalesce(m.invited, 0) = 0)`,
    ),
    invite: {
      kind: 'custom',
      build(op, value) {
        if (op !== '$eq' || !['pending', 'accepted', 'rejected'].includes(String(value))) {
          throw chatError.input('invite supports $eq with pending, accepted or rejected');
        }
        if (value === 'pending')
          return sql<boolean>`(m.invited = 1 and m.invite_accepted_at is null and m.invite_rejected_at is null)`;
        if (value === 'accepted') return sql<boolean>`(m.invite_accepted_at is not null)`;
        return sql<boolean>`(m.invite_rejected_at is not null)`;
      },
    },
    muted: booleanField(
      'muted',
      sql<boolean>`exists (select 1 from channel_mutes cm where cm.app_id = c.app_id and cm.cid = c.cid and cm.user_id = ${actor.userId ?? ''})`,
    ),
  };
  const compiled = compileFilter(filter, {
    dialect,
    entity: 'channels',
    customColumn: 'c.custom',
    fields,
  });
  const parts = [compiled];
  // Like Stream: hidden channels stay out of results unless the filter asks about `hidden`.
  if (!mentionsKey(filter, 'hidden')) parts.push(sql<boolean>`not ${hidden}`);
  // Like Stream: disabled channels stay out unless the filter asks about `disabled`; a server-side query naming
  // channels by `cid` still gets them, a client's never (it may not read them).
  if (!mentionsKey(filter, 'disabled') && !(actor.isServer && mentionsKey(filter, 'cid')))
    parts.push(sql<boolean>`c.disabled = 0`);
  if (!actor.isServer) {
    const publicTypes = openTypeNames(actor, types);
    parts.push(
      publicTypes.length > 0
        ? sql<boolean>`(m.user_id is not null or c.type in (${sql.join(publicTypes)}))`
        : sql<boolean>`m.user_id is not null`,
    );
  }
  return sql<boolean>`(${sql.join(parts, sql` and `)})`;
}

export function compileChannelSort(dialect: SqlDialectKind, raw: unknown): RawBuilder<unknown>[] {
  const items = parseSort(raw);
  const sort = items.length > 0 ? items : [{ field: 'last_updated', direction: -1 as const }];
  return compileSort(sort, {
    dialect,
    entity: 'channels',
    customColumn: 'c.custom',
    fields: {
      last_message_at: sql`coalesce(c.last_message_at, c.created_at)`,
      last_updated: sql`coalesce(c.last_message_at, c.updated_at)`,
      created_at: sql`c.created_at`,
      updated_at: sql`c.updated_at`,
      member_count: sql`c.member_count`,
      name: sql`c.name_search`,
      cid: sql`c.cid`,
      id: sql`c.id`,
      pinned_at: sql`m.pinned_at`,
      archived_at: sql`m.archived_at`,
      joined_at: sql`m.created_at`,
    },
  });
}

export function compileMemberFilter(
  dialect: SqlDialectKind,
  filter: JsonObject,
): RawBuilder<boolean> {
  return compileFilter(filter, {
    dialect,
    entity: 'members',
    customColumn: 'members.custom',
    fields: {
      id: { kind: 'column', ref: 'members.user_id', type: 'text' },
      user_id: { kind: 'column', ref: 'members.user_id', type: 'text' },
      name: { kind: 'column', ref: 'u.name_search', type: 'text', lowercased: true },
      channel_role: { kind: 'column', ref: 'members.channel_role', type: 'text' },
      // A timed ban lapses by itself: the flag is read against its expiry.
      banned: booleanField(
        'banned',
        sql<boolean>`(members.banned = 1 and (members.ban_expires is null or members.ban_expires > ${isoFromMicros(Date.now() * 1000)}))`,
      ),
      created_at: { kind: 'column', ref: 'members.created_at', type: 'date' },
      updated_at: { kind: 'column', ref: 'members.updated_at', type: 'date' },
      is_moderator: booleanField(
        'is_moderator',
        sql<boolean>`(members.channel_role = 'channel_moderator')`,
      ),
      last_active: { kind: 'column', ref: 'u.last_active', type: 'date' },
      invite: memberInviteField(),
      // Stream's "whether member is joined the channel or not": a member, or an invite that was accepted.
      joined: booleanField(
        'joined',
        sql<boolean>`((members.invited = 0 or members.invite_accepted_at is not null) and members.invite_rejected_at is null)`,
      ),
    },
  });
}

/** A member's `status` as Stream filters it: `{invite: 'pending' | 'accepted' | 'rejected' | 'member'}`. */
function memberInviteField(): FieldSpec {
  const states: Record<string, RawBuilder<boolean>> = {
    pending: sql<boolean>`(members.invited = 1 and members.invite_accepted_at is null and members.invite_rejected_at is null)`,
    accepted: sql<boolean>`(members.invite_accepted_at is not null and members.invite_rejected_at is null)`,
    rejected: sql<boolean>`(members.invite_rejected_at is not null)`,
    member: sql<boolean>`(members.invited = 0 and members.invite_accepted_at is null and members.invite_rejected_at is null)`,
  };
  return {
    kind: 'custom',
    build(op, value) {
      const condition =
        typeof value === 'string' && Object.hasOwn(states, value) ? states[value] : undefined;
      if (op !== '$eq' || !condition)
        throw chatError.input('invite supports $eq with pending, accepted, rejected or member');
      return condition;
    },
  };
}

export function compileMemberSort(dialect: SqlDialectKind, raw: unknown): RawBuilder<unknown>[] {
  return compileSort(parseSort(raw), {
    dialect,
    entity: 'members',
    fields: {
      user_id: sql`members.user_id`,
      id: sql`members.user_id`,
      name: sql`u.name_search`,
      created_at: sql`members.created_at`,
      updated_at: sql`members.updated_at`,
      last_active: sql`u.last_active`,
    },
  });
}
