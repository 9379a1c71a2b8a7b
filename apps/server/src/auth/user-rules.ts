import { checkAvatar, checkDaoHieu } from '@daohuu/domain';
import type { BetterAuthOptions } from 'better-auth';
import { APIError } from 'better-auth/api';

/**
 * Codes better-auth answers when a user write breaks the rules; auth-errors.ts turns them into our INVALID_NAME
 * (with the matching message) and INVALID_IMAGE.
 */
export const USER_RULE_CODES = {
  nameLength: 'DAO_HIEU_LENGTH',
  nameCharacters: 'DAO_HIEU_CHARACTERS',
  image: 'INVALID_IMAGE',
} as const;

function refuse(code: string, message: string): never {
  throw new APIError('BAD_REQUEST', { code, message });
}

function checkedName(value: unknown): string {
  const check = checkDaoHieu(value);
  if (check.ok) return check.name;
  refuse(
    check.problem === 'length' ? USER_RULE_CODES.nameLength : USER_RULE_CODES.nameCharacters,
    check.message,
  );
}

function checkedImage(value: unknown): string | null {
  const check = checkAvatar(value);
  if (check.ok) return check.image;
  refuse(USER_RULE_CODES.image, check.message);
}

/** The name and image of a partial user write, checked and normalised; fields it does not set stay unset. */
function checkedFields(data: Record<string, unknown>): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (data.name !== undefined) fields.name = checkedName(data.name);
  if (data.image !== undefined) fields.image = checkedImage(data.image);
  return fields;
}

/**
 * better-auth database hooks that hold every user row it writes to the đạo hiệu and avatar rules of
 * packages/domain: sign-up, update-user (whose body takes any JSON for `name` and `image`), and the demo seed,
 * which creates users through the same adapter. Hooking the writes rather than the endpoints also covers paths
 * better-auth may add later. `onUpdated` hears of every user row better-auth changed (the chat user follows it).
 */
export function userRuleHooks(onUpdated: (userId: string) => Promise<unknown> = async () => {}) {
  return {
    user: {
      create: {
        before: async (user) => ({
          data: { ...user, name: checkedName(user.name), image: checkedImage(user.image ?? null) },
        }),
      },
      update: {
        before: async (data) => ({ data: { ...data, ...checkedFields(data) } }),
        after: async (user) => {
          if (typeof user?.id === 'string') await onUpdated(user.id);
        },
      },
    },
  } satisfies BetterAuthOptions['databaseHooks'];
}
