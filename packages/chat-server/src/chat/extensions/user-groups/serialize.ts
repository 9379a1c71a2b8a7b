import type { UserGroupMemberRow, UserGroupRow } from './repo.ts';

/** Stream's UserGroupMemberResponse and UserGroupResponse (stream-chat types.ts). */
export interface UserGroupMemberResponse {
  group_id: string;
  user_id: string;
  is_admin: boolean;
  created_at: string;
}

export interface UserGroupResponse {
  id: string;
  name: string;
  created_at: string;
  updated_at: string;
  description?: string;
  team_id?: string;
  created_by?: string;
  members?: UserGroupMemberResponse[];
}

export function toGroupResponse(
  row: UserGroupRow,
  members?: readonly UserGroupMemberRow[],
): UserGroupResponse {
  return {
    id: row.id,
    name: row.name,
    created_at: row.created_at,
    updated_at: row.updated_at,
    ...(row.description !== null ? { description: row.description } : {}),
    ...(row.team_id !== null ? { team_id: row.team_id } : {}),
    ...(row.created_by !== null ? { created_by: row.created_by } : {}),
    ...(members
      ? {
          members: members.map((m) => ({
            group_id: m.group_id,
            user_id: m.user_id,
            is_admin: m.is_admin === 1,
            created_at: m.created_at,
          })),
        }
      : {}),
  };
}
