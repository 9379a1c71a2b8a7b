import type { OwnUserPart } from '../../core/extension-points.ts';
import type { UsersService } from '../../core/users/service.ts';
import type { MutesRepo } from './repo.ts';

/** `me.mutes` and `me.channel_mutes`: the client's mute state starts from them. */
export function mutesOwnUserPart(
  repo: MutesRepo,
  users: Pick<UsersService, 'responses'>,
): OwnUserPart {
  const read: OwnUserPart['read'] = async ({ appId, row, self, now }) => {
    const [userMutes, channelMutes] = await Promise.all([
      repo.userMutes(appId, row.id, now),
      repo.channelMutes(appId, row.id, now),
    ]);
    const targets = await users.responses(
      appId,
      userMutes.map((m) => m.target_id),
    );
    return {
      mutes: userMutes.map((m) => ({
        user: self,
        // responses() answers every id asked for (a placeholder for a deleted user).
        target: targets.get(m.target_id)!,
        created_at: m.created_at,
        updated_at: m.updated_at,
        ...(m.expires ? { expires: m.expires } : {}),
      })),
      channel_mutes: channelMutes.map((m) => ({
        user: self,
        channel: { cid: m.cid },
        created_at: m.created_at,
        updated_at: m.updated_at,
        ...(m.expires ? { expires: m.expires } : {}),
      })),
    };
  };
  return { read, empty: () => ({ mutes: [], channel_mutes: [] }) };
}
