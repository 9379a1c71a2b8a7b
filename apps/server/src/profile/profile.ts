import type { Selectable } from 'kysely';
import { ROLES } from '../auth/create-auth.ts';
import type { Role } from '../auth/create-auth.ts';
import type { UserTable } from '../db/schema.ts';

/** The Profile JSON of docs/product-api.md; the web app codes against exactly this. */
export interface Profile {
  id: string;
  daoHieu: string;
  email: string;
  role: Role;
  tuVi: number;
  balance: number;
  image: string | null;
  /** ISO 8601. */
  createdAt: string;
}

export type UserRow = Selectable<UserTable>;

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

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
