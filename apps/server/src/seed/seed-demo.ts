import type { Kysely } from 'kysely';
import type { Auth } from '../auth/create-auth.ts';
import type { Database } from '../db/schema.ts';
import { findUserByEmail, updateUser } from '../profile/profile-repo.ts';
import { DEMO_ADMIN, DEMO_USERS } from './demo-accounts.ts';
import type { DemoAccount } from './demo-accounts.ts';

const SEEDED_KEY = 'demo_seeded_at';

async function createAccount(
  auth: Auth,
  db: Kysely<Database>,
  account: DemoAccount,
): Promise<void> {
  if (await findUserByEmail(db, account.email)) return;
  const context = await auth.$context;
  const user = await context.internalAdapter.createUser(
    { email: account.email, name: account.daoHieu, emailVerified: false },
    { method: 'admin' },
  );
  await context.internalAdapter.linkAccount({
    userId: user.id,
    providerId: 'credential',
    accountId: user.id,
    password: await context.password.hash(account.password),
  });
  await updateUser(db, user.id, {
    role: account.role,
    tuVi: account.tuVi,
    balance: account.balance,
  });
}

/**
 * Seeds the demo admin and demo users once per database. The marker row makes later starts skip seeding
 * entirely, so an admin's edits (or deletions) of demo accounts are never undone; the per-email check makes a
 * seed interrupted half-way safe to resume. Accounts are created through better-auth's adapter, so its user hooks
 * hold them to the same đạo hiệu rule as everyone (auth/user-rules.ts). Returns whether anything was seeded.
 */
export async function seedDemoData(
  auth: Auth,
  db: Kysely<Database>,
  accounts: readonly DemoAccount[] = [DEMO_ADMIN, ...DEMO_USERS],
): Promise<boolean> {
  const marker = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', SEEDED_KEY)
    .executeTakeFirst();
  if (marker) return false;
  for (const account of accounts) await createAccount(auth, db, account);
  await db
    .insertInto('app_meta')
    .values({ key: SEEDED_KEY, value: new Date().toISOString() })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .execute();
  return true;
}
