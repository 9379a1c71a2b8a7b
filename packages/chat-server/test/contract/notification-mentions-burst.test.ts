import { describe, expect, it } from 'vitest';
import {
  createUsers,
  EVENT_TIMEOUT_MS,
  uniqueId,
  useContractEnv,
  type ContractEnv,
} from './helpers.ts';

/**
 * Notifications look up the group mentions of every message waiting to be recorded at once
 * (chat/extensions/notifications/service.ts): in a burst, each message's mentions must still reach exactly its own
 * recipients.
 */

interface Listed {
  notifications: { kind: string; message_id: string | null }[];
}

/** `userId`'s mention notifications, read server-side, once there are `count` of them (bounded wait). */
async function mentionsOf(env: ContractEnv, userId: string, count: number): Promise<string[]> {
  const deadline = Date.now() + EVENT_TIMEOUT_MS * 4;
  for (;;) {
    const page = await env.admin.get<Listed>(`${env.admin.baseURL}/daohuu/notifications`, {
      user_id: userId,
      limit: 100,
    });
    const ids = page.notifications.filter((n) => n.kind === 'mention').map((n) => n.message_id!);
    if (ids.length >= count) return ids.sort();
    if (Date.now() > deadline)
      throw new Error(`${userId} has ${ids.length} mention notifications, expected ${count}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('mention notifications of a burst of messages', () => {
  const env = useContractEnv();

  it('tells each group member and each mentioned user of exactly the messages that mention them', async () => {
    const [author, elder, disciple] = ['tac-gia', 'truong-lao', 'de-tu'].map((p) => uniqueId(p));
    await createUsers(env(), [author!, elder!, disciple!]);
    const groupId = uniqueId('truong-lao-doan');
    await env().admin.createUserGroup({
      id: groupId,
      name: 'Trưởng lão đoàn',
      member_ids: [elder!],
    });
    const channel = env().admin.channel('messaging', uniqueId('nghi-su'), {
      members: [author!, elder!, disciple!],
      created_by_id: author,
    } as never);
    await channel.create();

    // Sent at once, so they queue up for the notifications recorder together.
    const kinds = ['group', 'user', 'none', 'group', 'user', 'group', 'none', 'user'] as const;
    const sent = await Promise.all(
      kinds.map((kind, i) =>
        channel.sendMessage({
          text: `Tin ${i}`,
          user_id: author,
          ...(kind === 'group' ? { mentioned_group_ids: [groupId] } : {}),
          ...(kind === 'user' ? { mentioned_users: [disciple!] } : {}),
        } as never),
      ),
    );
    const idsOf = (kind: (typeof kinds)[number]) =>
      sent
        .filter((_, i) => kinds[i] === kind)
        .map((r) => r.message.id)
        .sort();

    expect(await mentionsOf(env(), elder!, 3)).toEqual(idsOf('group'));
    expect(await mentionsOf(env(), disciple!, 3)).toEqual(idsOf('user'));
  });
});
