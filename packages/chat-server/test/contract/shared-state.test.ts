import type { StreamChat } from 'stream-chat';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../../src/chat/core/access/access.ts';
import {
  connectUser,
  createChannelAsServer,
  eventually,
  newClient,
  sendText,
  twoMembers,
  uniqueId,
  useContractEnv,
  waitForEvent,
  type ContractEnv,
} from './helpers.ts';

/*
 * A viewer with nothing of their own in a channel (no membership) gets a channel state whose viewer-neutral part,
 * serialised once, is shared with every such viewer (src/chat/core/channels/shared-state.ts). Each test compares
 * what a watching viewer's query answers, through the route and the shared text, with what the unshared build
 * (`getOrCreate`, in process) gives the same viewer: they must be equal, field for field, after every change that
 * could leave a shared part stale. Each viewer asks twice first, so the second answer comes from a warm part.
 */

const QUERY = { watch: true, state: true, presence: false, messages: { limit: 25 } };

interface Scene {
  channelId: string;
  cid: string;
  owner: { id: string; client: StreamChat };
  /** A member who is not connected yet. */
  readerId: string;
}

async function scene(env: ContractEnv, prefix: string): Promise<Scene> {
  const channelId = uniqueId(prefix);
  const ownerId = uniqueId(`${prefix}-chu`);
  const readerId = uniqueId(`${prefix}-doc`);
  await env.admin.upsertUsers([
    { id: ownerId, name: 'Chưởng môn' },
    { id: readerId, name: 'Đệ tử đọc' },
  ]);
  await createChannelAsServer(env, 'livestream', channelId, ownerId, {
    members: [ownerId, readerId],
  });
  const owner = await connectUser(env, ownerId);
  await owner.channel('livestream', channelId).watch();
  await sendText(owner.channel('livestream', channelId), 'Khai mạc đại hội tu tiên');
  return {
    channelId,
    cid: `livestream:${channelId}`,
    owner: { id: ownerId, client: owner },
    readerId,
  };
}

/** The watch's answer as the route sends it (the client's own request, so its connection id rides along). */
async function watchAnswer(client: StreamChat, channelId: string) {
  const answer = await client.post<Record<string, unknown>>(
    `${client.baseURL}/channels/livestream/${channelId}/query`,
    QUERY,
  );
  const { duration: _duration, ...rest } = answer;
  return rest;
}

/** What the unshared build gives `userId` (null: anonymous) for the same query, as JSON. */
async function unsharedAnswer(env: ContractEnv, channelId: string, userId: string | null) {
  const runtime = env.server.runtime();
  const app = runtime.apps.all()[0]!;
  const actor: Actor = {
    appId: app.id,
    userId,
    role: userId ? await runtime.services.users.roleOf(app.id, userId) : 'anonymous',
    isServer: false,
    connectionId: null,
  };
  const state = await runtime.services.channels.getOrCreate(actor, 'livestream', channelId, {
    ...QUERY,
    watch: false,
  });
  return JSON.parse(JSON.stringify(state)) as Record<string, unknown>;
}

/** Asks twice as `client` (the second from the shared part) and expects what the unshared build gives. */
async function expectUnsharedEqual(
  env: ContractEnv,
  client: StreamChat,
  channelId: string,
  userId: string | null,
) {
  await watchAnswer(client, channelId);
  const answer = await watchAnswer(client, channelId);
  expect(answer).toEqual(await unsharedAnswer(env, channelId, userId));
  return answer;
}

async function storedLastActive(env: ContractEnv, userId: string) {
  const runtime = env.server.runtime();
  const row = await runtime.services.users.repo.get(runtime.apps.all()[0]!.id, userId);
  return row?.last_active ?? null;
}

describe('channel states shared between viewers without a membership', { timeout: 30_000 }, () => {
  const env = useContractEnv();

  it('answers a plain viewer, a reactor, the creator and an anonymous viewer each what the unshared build gives them', async () => {
    const s = await scene(env(), 'chia-se');
    const plainId = uniqueId('chia-se-xem');
    const plain = await connectUser(env(), plainId);
    const reactorId = uniqueId('chia-se-tha-tim');
    const reactor = await connectUser(env(), reactorId);
    const anonymous = newClient(env());
    await anonymous.connectAnonymousUser();

    const first = await watchAnswer(plain, s.channelId);
    const [message] = first.messages as { id: string }[];
    await reactor.channel('livestream', s.channelId).watch();
    // Livestream viewers may not react; the server reacts in their name.
    await env()
      .admin.channel('livestream', s.channelId)
      .sendReaction(message!.id, { type: 'love', user_id: reactorId });

    const seenByPlain = await expectUnsharedEqual(env(), plain, s.channelId, plainId);
    expect((seenByPlain.messages as { own_reactions: unknown[] }[])[0]!.own_reactions).toEqual([]);
    const seenByReactor = await expectUnsharedEqual(env(), reactor, s.channelId, reactorId);
    const own = (seenByReactor.messages as { own_reactions: { type: string }[] }[])[0]!;
    expect(own.own_reactions.map((reaction) => reaction.type)).toEqual(['love']);
    await expectUnsharedEqual(env(), anonymous, s.channelId, null);
    // The creator is no member here, but owns the channel: other capabilities, so another shared part.
    await s.owner.client.disconnectUser();
    const creator = await connectUser(env(), s.owner.id);
    await env().admin.channel('livestream', s.channelId).removeMembers([s.owner.id]);
    const seenByCreator = await expectUnsharedEqual(env(), creator, s.channelId, s.owner.id);
    expect((seenByCreator.channel as { own_capabilities: string[] }).own_capabilities).toEqual(
      expect.arrayContaining(['update-channel']),
    );
    expect((seenByPlain.channel as { own_capabilities: string[] }).own_capabilities).not.toContain(
      'update-channel',
    );
  });

  it('shows a message meant for one viewer to that viewer alone', async () => {
    const s = await scene(env(), 'chia-se-rieng');
    const [chosenId, otherId] = [uniqueId('chia-se-rieng-a'), uniqueId('chia-se-rieng-b')];
    const chosen = await connectUser(env(), chosenId);
    const other = await connectUser(env(), otherId);
    await watchAnswer(other, s.channelId);
    const { message } = await env()
      .admin.channel('livestream', s.channelId)
      .sendMessage({ text: 'Mật truyền', user_id: s.owner.id, restricted_visibility: [chosenId] });

    const seenByOther = await expectUnsharedEqual(env(), other, s.channelId, otherId);
    expect((seenByOther.messages as { id: string }[]).map((m) => m.id)).not.toContain(message.id);
    const seenByChosen = await expectUnsharedEqual(env(), chosen, s.channelId, chosenId);
    expect((seenByChosen.messages as { id: string }[]).map((m) => m.id)).toContain(message.id);
  });

  it('shows a member who just came online and a renamed channel on the very next watch', async () => {
    const s = await scene(env(), 'chia-se-moi');
    const viewerId = uniqueId('chia-se-moi-xem');
    const viewer = await connectUser(env(), viewerId);
    await expectUnsharedEqual(env(), viewer, s.channelId, viewerId);

    // Coming online changes the member's `online` flag, which no channel event announces.
    const reader = await connectUser(env(), s.readerId);
    const online = await expectUnsharedEqual(env(), viewer, s.channelId, viewerId);
    const readerMember = (online.members as { user_id: string; user: { online: boolean } }[]).find(
      (member) => member.user_id === s.readerId,
    );
    expect(readerMember?.user.online).toBe(true);

    const connected = await storedLastActive(env(), s.readerId);
    await reader.disconnectUser();
    // The server records the reader's last_active after the socket closed, unannounced; compared before that write
    // lands, the shared answer and the unshared build could differ by it.
    await eventually(
      async () => (await storedLastActive(env(), s.readerId)) !== connected,
      `the stored last_active of ${s.readerId} moved`,
    );
    const offline = await expectUnsharedEqual(env(), viewer, s.channelId, viewerId);
    expect(
      (offline.members as { user_id: string; user: { online: boolean } }[]).find(
        (member) => member.user_id === s.readerId,
      )?.user.online,
    ).toBe(false);

    await env()
      .admin.channel('livestream', s.channelId)
      .updatePartial({ set: { name: 'Đại điện' } });
    const renamed = await expectUnsharedEqual(env(), viewer, s.channelId, viewerId);
    expect((renamed.channel as { name: string }).name).toBe('Đại điện');
  });

  it('shows a member who just read on the very next watch, announced by the read event alone', async () => {
    // A messaging channel that lets any user read it: read events are on there, unlike a livestream's.
    const { channelId, bobId, aliceChannel, bobChannel } = await twoMembers(env(), 'chia-se-doc');
    await env()
      .admin.channel('messaging', channelId)
      .updatePartial({
        set: { config_overrides: { grants: { user: ['read-channel'] } } },
      } as never);
    await sendText(aliceChannel, 'Bài giảng hôm nay');
    const viewerId = uniqueId('chia-se-doc-xem');
    const viewer = await connectUser(env(), viewerId);
    const query = (client: StreamChat) =>
      client.post<Record<string, unknown>>(
        `${client.baseURL}/channels/messaging/${channelId}/query`,
        QUERY,
      );
    const unread = async () => {
      const answer = await query(viewer);
      const reads = answer.read as { user: { id: string }; unread_messages: number }[];
      return reads.find((entry) => entry.user.id === bobId)?.unread_messages;
    };
    await query(viewer);
    expect(await unread()).toBe(1);
    const read = waitForEvent(viewer, 'message.read');
    await bobChannel.markRead();
    await read;
    // Nothing of the channel row changed (a read is no message or member write): only the event told this node.
    expect(await unread()).toBe(0);
  });

  it("shows a change of the channel type's settings on the very next watch", async () => {
    const s = await scene(env(), 'chia-se-loai');
    const viewerId = uniqueId('chia-se-loai-xem');
    const viewer = await connectUser(env(), viewerId);
    const before = await expectUnsharedEqual(env(), viewer, s.channelId, viewerId);
    const wasOn = (before.channel as { config: { reactions: boolean } }).config.reactions;
    await env().admin.updateChannelType('livestream', { reactions: !wasOn });
    try {
      const after = await expectUnsharedEqual(env(), viewer, s.channelId, viewerId);
      expect((after.channel as { config: { reactions: boolean } }).config.reactions).toBe(!wasOn);
    } finally {
      await env().admin.updateChannelType('livestream', { reactions: wasOn });
    }
  });
});
