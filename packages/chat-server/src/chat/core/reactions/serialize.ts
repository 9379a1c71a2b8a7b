import type { ReactionResponse as StreamReactionResponse } from 'stream-chat';
import { compact, parseObject } from '../json.ts';
import type { UserResponse } from '../users/serialize.ts';
import type { ReactionRow } from './repo.ts';

export interface ReactionResponse {
  type: string;
  user_id: string;
  message_id: string;
  score: number;
  created_at: string;
  updated_at: string;
  user?: UserResponse;
  [custom: string]: unknown;
}

export function toReactionResponse(
  row: ReactionRow,
  user: UserResponse | undefined,
): ReactionResponse {
  return compact({
    ...parseObject(row.custom),
    type: row.type,
    user_id: row.user_id,
    message_id: row.message_id,
    score: row.score,
    created_at: row.created_at,
    updated_at: row.updated_at,
    user,
  }) satisfies StreamReactionResponse;
}
