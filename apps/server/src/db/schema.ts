import type { Generated } from 'kysely';

/** The user table as better-auth creates it, plus our additional fields (auth/create-auth.ts). */
export interface UserTable {
  id: string;
  name: string;
  email: string;
  emailVerified: number;
  image: string | null;
  /** better-auth stores dates as ISO strings in SQLite. */
  createdAt: string;
  updatedAt: string;
  role: string | null;
  tuVi: number | null;
  balance: number | null;
}

/** Small key-value facts about this installation (e.g. that the demo data was seeded once). */
export interface AppMetaTable {
  key: string;
  value: string;
  updatedAt: Generated<string>;
}

/** A cultivator's own settings; no row means every setting at its default. */
export interface UserSettingsTable {
  userId: string;
  /** 1: a breakthrough into a new realm is announced in Quảng Trường (default 0, off). */
  announceBreakthrough: number;
  updatedAt: string;
}

/** The realms (REALMS row index) a cultivator's breakthrough was announced in Quảng Trường: each once, ever. */
export interface RealmAnnouncementTable {
  userId: string;
  realmIndex: number;
  announcedAt: string;
}

/** The tables our own queries touch. better-auth owns session, account and verification. */
export interface Database {
  user: UserTable;
  app_meta: AppMetaTable;
  user_settings: UserSettingsTable;
  realm_announcement: RealmAnnouncementTable;
}
