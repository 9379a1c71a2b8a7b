import type { Channel, StreamChat } from 'stream-chat';

export type ConversationKind = 'direct' | 'group';

export const GROUP_NAME_MAX = 64;

export interface ConversationRequest {
  kind: ConversationKind;
  /** The other members; the current user is always added. */
  memberIds: string[];
  /** The group's name (ignored for a direct message). */
  name: string;
}

function groupId(): string {
  // Channel ids allow letters, digits, "_", "-" and "!"; a UUID without braces fits.
  return `nhom-${crypto.randomUUID()}`;
}

/**
 * Creates (or reopens) a `messaging` channel. A direct message is distinct: the server derives its id from the two
 * members, so starting a DM twice opens the same conversation. A group gets a fresh id and its name.
 */
export async function createConversation(
  client: StreamChat,
  { kind, memberIds, name }: ConversationRequest,
): Promise<Channel> {
  const me = client.userID;
  if (!me) throw new Error('The chat is not connected as a cultivator.');
  const members = [...new Set([me, ...memberIds])];
  if (members.length < 2) throw new Error('A conversation needs someone else.');
  if (kind === 'direct') {
    if (members.length !== 2)
      throw new Error('A direct message is between exactly two cultivators.');
    const channel = client.channel('messaging', { members });
    await channel.watch();
    return channel;
  }
  const channel = client.channel('messaging', groupId(), { name: name.trim(), members });
  await channel.watch();
  return channel;
}
