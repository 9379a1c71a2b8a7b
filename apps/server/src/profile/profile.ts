import { isRole } from '@daohuu/domain';
import type { Profile } from '@daohuu/domain';
import type { Selectable } from 'kysely';
import type { UserTable } from '../db/schema.ts';

export type UserRow = Selectable<UserTable>;

/** The Profile JSON of docs/product-api.md (its type lives in packages/domain, shared with the web app). */
export function toProfile(row: UserRow): Profile {
  return {
    id: row.id,
    daoHieu: row.name,
    email: row.email,
    role: isRole(row.role) ? row.role : 'user',
    tuVi: row.tuVi ?? 0,
    balance: row.balance ?? 0,
    image: row.image,
    createdAt: new Date(row.createdAt).toISOString(),
  };
}
