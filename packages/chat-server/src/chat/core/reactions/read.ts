import { sql } from 'kysely';
import { chatError } from '../../../errors.ts';
import type { Actor } from '../access/access.ts';
import type { JsonObject } from '../json.ts';
import { cursorOffset } from '../query/bounds.ts';
import { compileFilter } from '../query/filter.ts';
import type { ReactionsContext } from './context.ts';
import type { ReactionRow } from './repo.ts';
import { toReactionResponse, type ReactionResponse } from './serialize.ts';

function encodeCursor(offset: number): string {
  return Buffer.from(JSON.stringify({ offset })).toString('base64url');
}

function decodeCursor(next: unknown): number {
  if (next === undefined || next === null || next === '') return 0;
  try {
    const value = JSON.parse(Buffer.from(String(next), 'base64url').toString('utf8')) as {
      offset?: unknown;
    };
    return cursorOffset(value.offset, 'next');
  } catch {
    throw chatError.input('next is not a valid cursor');
  }
}

async function withUsers(
  { users }: ReactionsContext,
  appId: string,
  rows: ReactionRow[],
): Promise<ReactionResponse[]> {
  const usersById = await users.responses(
    appId,
    rows.map((r) => r.user_id),
  );
  return rows.map((r) => toReactionResponse(r, usersById.get(r.user_id)));
}

/** GET /messages/:id/reactions: a plain offset page. */
export async function listReactions(
  context: ReactionsContext,
  actor: Actor,
  messageId: string,
  limit: number,
  offset: number,
): Promise<{ reactions: ReactionResponse[] }> {
  await context.messages.accessMessage(actor, messageId);
  if (limit > 300) throw chatError.input('limit must be at most 300');
  const rows = await context.repo.query(actor.appId, messageId, sql<boolean>`1 = 1`, limit, offset);
  return { reactions: await withUsers(context, actor.appId, rows) };
}

/** POST /messages/:id/reactions: filtered, with an opaque `next` cursor. */
export async function queryReactions(
  context: ReactionsContext,
  actor: Actor,
  messageId: string,
  body: JsonObject,
): Promise<{ reactions: ReactionResponse[]; next?: string }> {
  await context.messages.accessMessage(actor, messageId);
  const limit = body.limit === undefined ? 25 : body.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 300) {
    throw chatError.input('limit must be between 1 and 300');
  }
  const offset = decodeCursor(body.next);
  const where = compileFilter(body.filter ?? {}, {
    dialect: context.deps.dialect,
    entity: 'reactions',
    fields: {
      type: { kind: 'column', ref: 'type', type: 'text' },
      user_id: { kind: 'column', ref: 'user_id', type: 'text' },
      created_at: { kind: 'column', ref: 'created_at', type: 'date' },
    },
  });
  const rows = await context.repo.query(actor.appId, messageId, where, limit + 1, offset);
  const result: { reactions: ReactionResponse[]; next?: string } = {
    reactions: await withUsers(context, actor.appId, rows.slice(0, limit)),
  };
  if (rows.length > limit) result.next = encodeCursor(offset + limit);
  return result;
}
