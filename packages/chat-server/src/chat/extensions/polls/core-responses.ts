import type { PollsCoreContext } from './core.ts';
import type { PollRow, PollVoteRow } from './repo.ts';
import { pollUserIds, toPollResponse, type PollResponse } from './serialize.ts';

/** The recomputed polls, by id, with `viewerId`'s own votes (null: none, for shared payloads). */
export async function pollResponses(
  { repo, users }: PollsCoreContext,
  appId: string,
  polls: readonly PollRow[],
  viewerId: string | null,
): Promise<Map<string, PollResponse>> {
  const result = new Map<string, PollResponse>();
  if (polls.length === 0) return result;
  const ids = polls.map((p) => p.id);
  const [aggregates, own] = await Promise.all([
    repo.aggregates(appId, ids),
    viewerId
      ? repo.ownVotes(appId, ids, viewerId)
      : Promise.resolve(new Map<string, PollVoteRow[]>()),
  ]);
  const userIds = new Set<string>();
  for (const poll of polls) {
    for (const id of pollUserIds(poll, aggregates.get(poll.id)!, own.get(poll.id) ?? []))
      userIds.add(id);
  }
  const usersById = await users.responses(appId, userIds);
  for (const poll of polls) {
    result.set(
      poll.id,
      toPollResponse(poll, aggregates.get(poll.id)!, own.get(poll.id) ?? [], usersById),
    );
  }
  return result;
}

export async function pollResponse(
  context: PollsCoreContext,
  appId: string,
  poll: PollRow,
  viewerId: string | null,
): Promise<PollResponse> {
  return (await pollResponses(context, appId, [poll], viewerId)).get(poll.id)!;
}
