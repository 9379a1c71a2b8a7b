import { randomUUID } from 'node:crypto';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../../core/access/access.ts';
import type { ChatDeps } from '../../core/deps.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { UserGroupRow, UserGroupsRepo } from './repo.ts';
import {
  GROUP_LIMITS,
  checkDescription,
  checkGroupId,
  checkMemberIds,
  checkName,
  pageLimit,
  requireCreator,
  requireManager,
  requireReader,
} from './rules.ts';
import { toGroupResponse, type UserGroupResponse } from './serialize.ts';

export interface CreateGroupInput {
  id?: string | null;
  name: string;
  description?: string | null;
  member_ids?: string[] | null;
}

export interface UpdateGroupInput {
  name?: string | null;
  description?: string | null;
}

type One = Promise<{ user_group: UserGroupResponse }>;
type Many = Promise<{ user_groups: UserGroupResponse[] }>;

export interface UserGroupsService {
  create(actor: Actor, body: CreateGroupInput): One;
  get(actor: Actor, id: string): One;
  query(actor: Actor, query: { limit?: string; id_gt?: string; created_at_gt?: string }): Many;
  search(
    actor: Actor,
    query: { query?: string; limit?: string; id_gt?: string; name_gt?: string },
  ): Many;
  update(actor: Actor, id: string, body: UpdateGroupInput): One;
  remove(actor: Actor, id: string): Promise<Record<string, never>>;
  addMembers(
    actor: Actor,
    id: string,
    body: { member_ids: string[]; as_admin?: boolean | null },
  ): One;
  removeMembers(actor: Actor, id: string, body: { member_ids: string[] }): One;
}

interface Context {
  deps: ChatDeps;
  repo: UserGroupsRepo;
  users: UsersService;
}

/**
 * Stream's user groups: every signed-in user reads them and may create some; the server, app staff, a group's creator
 * and its admins change it (rules.ts).
 */
export function createUserGroupsService(ctx: Context): UserGroupsService {
  return { ...groupReads(ctx), ...groupWrites(ctx), ...memberWrites(ctx) };
}

/** The group, or code 16. */
async function existing({ repo }: Context, appId: string, id: string): Promise<UserGroupRow> {
  const row = await repo.get(appId, id);
  if (!row) throw chatError.notFound(`user group ${id} not found`);
  return row;
}

/**
 * The group, once `actor` may change it (rules.ts `requireManager`), with its members when they had to be read for
 * that (a client's call).
 */
async function managed(ctx: Context, actor: Actor, id: string) {
  const row = await existing(ctx, actor.appId, id);
  if (actor.isServer) return { row, members: undefined };
  const members = await ctx.repo.members(actor.appId, id);
  const admins = members.filter((m) => m.is_admin === 1).map((m) => m.user_id);
  requireManager(actor, row, admins);
  return { row, members };
}

/** The group with its members, or code 16 as `existing`. */
async function withMembers(ctx: Context, appId: string, id: string): One {
  const row = await existing(ctx, appId, id);
  return { user_group: toGroupResponse(row, await ctx.repo.members(appId, id)) };
}

/** Every id must name an existing user: a group of nobody would be mentioned in vain. */
async function checkUsersExist({ users }: Context, appId: string, ids: string[]): Promise<void> {
  const found = await users.repo.getMany(appId, ids);
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length) throw chatError.input(`member_ids: users ${missing.join(', ')} do not exist`);
}

function memberRows(appId: string, groupId: string, ids: string[], admin: boolean, now: string) {
  return ids.map((user_id) => ({
    app_id: appId,
    group_id: groupId,
    user_id,
    is_admin: admin ? 1 : 0,
    created_at: now,
  }));
}

/** Reading, listing and searching groups. */
function groupReads(ctx: Context): Pick<UserGroupsService, 'get' | 'query' | 'search'> {
  const { repo } = ctx;
  return {
    async get(actor, id) {
      requireReader(actor);
      return withMembers(ctx, actor.appId, id);
    },
    async query(actor, query) {
      requireReader(actor);
      const rows = await repo.page(actor.appId, {
        limit: pageLimit(query.limit, 25, 100),
        idGt: query.id_gt || undefined,
        createdAtGt: query.created_at_gt || undefined,
      });
      return { user_groups: rows.map((row) => toGroupResponse(row)) };
    },
    async search(actor, query) {
      requireReader(actor);
      const prefix = (query.query ?? '').trim().toLowerCase();
      if (!prefix) throw chatError.input('query must not be empty');
      if (prefix.length > GROUP_LIMITS.nameLength)
        throw chatError.input(`query must be at most ${GROUP_LIMITS.nameLength} characters`);
      const rows = await repo.search(actor.appId, {
        prefix,
        limit: pageLimit(query.limit, 10, 100),
        idGt: query.id_gt || undefined,
        nameGt: query.name_gt ? query.name_gt.toLowerCase() : undefined,
      });
      return { user_groups: rows.map((row) => toGroupResponse(row)) };
    },
  };
}

/** Creating, renaming and deleting groups. */
function groupWrites(ctx: Context): Pick<UserGroupsService, 'create' | 'update' | 'remove'> {
  const { deps, repo } = ctx;
  return {
    async create(actor, body) {
      requireCreator(actor);
      const id = body.id ? checkGroupId(body.id) : randomUUID();
      const name = checkName(body.name);
      const description = checkDescription(body.description);
      const memberIds = checkMemberIds(body.member_ids ?? [], false);
      await checkUsersExist(ctx, actor.appId, memberIds);
      if ((await repo.count(actor.appId)) >= GROUP_LIMITS.groupsPerApp)
        throw chatError.input(`an app may have at most ${GROUP_LIMITS.groupsPerApp} user groups`);
      if (
        !actor.isServer &&
        (await repo.count(actor.appId, actor.userId!)) >= GROUP_LIMITS.groupsPerCreator
      )
        throw chatError.input(
          `a user may create at most ${GROUP_LIMITS.groupsPerCreator} user groups`,
        );
      const now = deps.clock.now();
      const row: UserGroupRow = {
        app_id: actor.appId,
        id,
        name,
        name_key: name.toLowerCase(),
        description,
        team_id: null,
        created_by: actor.userId,
        created_at: now,
        updated_at: now,
      };
      const members = memberRows(actor.appId, id, memberIds, false, now);
      if (!(await repo.create(row, members)))
        throw chatError.input(`user group ${id} already exists`);
      return { user_group: toGroupResponse(row, members) };
    },
    async update(actor, id, body) {
      await managed(ctx, actor, id);
      const set: Partial<UserGroupRow> = { updated_at: deps.clock.now() };
      if (body.name !== undefined && body.name !== null) {
        set.name = checkName(body.name);
        set.name_key = set.name.toLowerCase();
      }
      if (body.description !== undefined) set.description = checkDescription(body.description);
      await repo.update(actor.appId, id, set);
      return withMembers(ctx, actor.appId, id);
    },
    async remove(actor, id) {
      await managed(ctx, actor, id);
      await repo.remove(actor.appId, id);
      return {};
    },
  };
}

/** Adding and removing members. */
function memberWrites(ctx: Context): Pick<UserGroupsService, 'addMembers' | 'removeMembers'> {
  const { deps, repo } = ctx;
  return {
    async addMembers(actor, id, body) {
      const ids = checkMemberIds(body.member_ids, true);
      const { members } = await managed(ctx, actor, id);
      await checkUsersExist(ctx, actor.appId, ids);
      const current = new Set(
        (members ?? (await repo.members(actor.appId, id))).map((m) => m.user_id),
      );
      const added = ids.filter((userId) => !current.has(userId)).length;
      if (current.size + added > GROUP_LIMITS.membersPerGroup)
        throw chatError.input(
          `a user group may have at most ${GROUP_LIMITS.membersPerGroup} members`,
        );
      const now = deps.clock.now();
      const rows = memberRows(actor.appId, id, ids, body.as_admin === true, now);
      await repo.addMembers(actor.appId, id, rows, now);
      return withMembers(ctx, actor.appId, id);
    },
    async removeMembers(actor, id, body) {
      const ids = checkMemberIds(body.member_ids, true);
      await managed(ctx, actor, id);
      await repo.removeMembers(actor.appId, id, ids, deps.clock.now());
      return withMembers(ctx, actor.appId, id);
    },
  };
}
