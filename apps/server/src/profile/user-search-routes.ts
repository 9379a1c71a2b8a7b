import type { UserSearchResult } from '@daohuu/domain';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Auth } from '../auth/create-auth.ts';
import { requireSessionUserId } from '../auth/session.ts';
import type { Database } from '../db/schema.ts';
import { appError } from '../errors.ts';
import { USER_SEARCH_MAX_QUERY_LENGTH, searchUsersByDaoHieu } from './user-search.ts';

export interface UserSearchRoutesOptions {
  auth: Auth;
  db: Kysely<Database>;
}

function parseSearchQuery(raw: unknown): string {
  const params = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const query = params.q ?? '';
  if (typeof query !== 'string' || query.length > USER_SEARCH_MAX_QUERY_LENGTH) {
    throw appError.invalidQuery();
  }
  return query;
}

/** GET /api/users/search?q=: finds fellow cultivators by đạo hiệu, to start a direct message or a group. */
export async function userSearchRoutes(
  app: FastifyInstance,
  { auth, db }: UserSearchRoutesOptions,
): Promise<void> {
  app.get('/api/users/search', async (request, reply): Promise<UserSearchResult> => {
    const userId = await requireSessionUserId(auth, request, reply);
    const query = parseSearchQuery(request.query);
    return { users: await searchUsersByDaoHieu(db, query, userId) };
  });
}
