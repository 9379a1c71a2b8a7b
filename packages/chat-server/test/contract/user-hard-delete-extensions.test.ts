import type { OwnUserResponse, StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import { connectUser, createUsers, uniqueId, useContractEnv } from './helpers.ts';

/** The mutes in the connected user's own object (`me`). */
const mutesOf = (client: StreamChat) => (client.user as OwnUserResponse | undefined)?.mutes ?? [];

// Stream apps clean up by hard-deleting their users; one created again under the same id must start clean.
describe("a hard-deleted user's mutes, blocks and flags", { timeout: 20_000 }, () => {
  const env = useContractEnv();

  async function scene(prefix: string) {
    const [alice, evil] = [uniqueId(`${prefix}-alice`), uniqueId(`${prefix}-evil`)];
    await createUsers(env(), [alice, evil]);
    const { admin } = env();
    await admin.muteUser(evil, alice);
    await admin.muteUser(alice, evil);
    await admin.blockUser(evil, alice);
    await admin.flagUser(evil, { user_id: alice });
    return { alice, evil, admin };
  }

  it('go with the user, so one created again under the same id is neither muted, blocked nor flagged', async () => {
    const { alice, evil, admin } = await scene('forget');

    await admin.deleteUser(evil, { hard_delete: true });
    await createUsers(env(), [evil]);

    const aliceClient = await connectUser(env(), alice);
    expect(mutesOf(aliceClient)).toEqual([]);
    expect((await admin.getBlockedUsers(alice)).blocks).toEqual([]);
    await expect(aliceClient.flagUser(evil)).resolves.toMatchObject({ flag: expect.anything() });
    const evilClient = await connectUser(env(), evil);
    expect(mutesOf(evilClient)).toEqual([]);
  });

  it('stay when the user is only soft-deleted', async () => {
    const { alice, evil, admin } = await scene('keep');

    await admin.deleteUser(evil);

    const aliceClient = await connectUser(env(), alice);
    expect(mutesOf(aliceClient).map((m) => m.target.id)).toEqual([evil]);
    expect((await admin.getBlockedUsers(alice)).blocks.map((b) => b.blocked_user_id)).toEqual([
      evil,
    ]);
  });
});
