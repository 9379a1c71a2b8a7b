import { realmIndexOf, realmName } from '@daohuu/domain';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { StreamChat } from 'stream-chat';
import { ChatNotReadyError } from '../chat/chat-api.ts';
import { PUBLIC_CHANNELS } from '../chat/public-channels.ts';
import type { Database } from '../db/schema.ts';
import type { UserRow } from './profile.ts';
import { readUserSettings } from './user-settings.ts';

/** The chat server's own endpoint (not Stream's) for a notification the product creates. */
const NOTIFICATIONS_PATH = '/daohuu/notifications';

/** Who announces breakthroughs in Quảng Trường: a chat-only user no product id can collide with. */
export const ANNOUNCER = { id: 'daohuu-thien-dao', name: 'Thiên Đạo' } as const;

const SQUARE = PUBLIC_CHANNELS.find((channel) => channel.id === 'quang-truong')!;

export interface Breakthroughs {
  /**
   * After an admin wrote a user's tu vi: when it entered a higher realm, the user gets a "Đột phá!" notification
   * and, if their settings allow, Quảng Trường hears of it, once per realm ever. Never rejects: a chat failure is
   * logged and the tu vi change stands.
   */
  tuViChanged(before: UserRow, after: UserRow): Promise<void>;
}

export interface BreakthroughsOptions {
  db: Kysely<Database>;
  /** The server-side chat client (ChatApi.server); throws while chat is not reachable. */
  chat: () => StreamChat;
  log: FastifyBaseLogger;
}

/** The announcement's text in Quảng Trường. */
export function announcementText(daoHieu: string, realm: string): string {
  return `Chúc mừng ${daoHieu} đã đột phá lên ${realm}!`;
}

export function createBreakthroughs({ db, chat, log }: BreakthroughsOptions): Breakthroughs {
  let announcer: Promise<unknown> | undefined;

  async function notify(user: UserRow, realm: string): Promise<void> {
    const client = chat();
    await client.post(`${client.baseURL}${NOTIFICATIONS_PATH}`, {
      user_id: user.id,
      kind: 'breakthrough',
      data: { realm },
    });
  }

  /** Remembers the realm first, so two changes at once announce it once; forgets it again if sending fails. */
  async function announce(user: UserRow, realmIndex: number, realm: string): Promise<void> {
    if (!(await readUserSettings(db, user.id)).announceBreakthrough) return;
    const inserted = await db
      .insertInto('realm_announcement')
      .values({ userId: user.id, realmIndex, announcedAt: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['userId', 'realmIndex']).doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return;
    try {
      const client = chat();
      announcer ??= client.upsertUser({ ...ANNOUNCER }).catch((error: unknown) => {
        announcer = undefined;
        throw error;
      });
      await announcer;
      await client.channel(SQUARE.type, SQUARE.id).sendMessage({
        // A fixed id: should the same announcement be sent twice anyway, chat keeps one.
        id: `dot-pha-${user.id}-${realmIndex}`,
        text: announcementText(user.name, realm),
        user_id: ANNOUNCER.id,
      });
    } catch (error) {
      await db
        .deleteFrom('realm_announcement')
        .where('userId', '=', user.id)
        .where('realmIndex', '=', realmIndex)
        .execute();
      throw error;
    }
  }

  return {
    async tuViChanged(before, after) {
      const from = realmIndexOf(before.tuVi ?? 0);
      const to = realmIndexOf(after.tuVi ?? 0);
      if (to <= from) return;
      const realm = realmName(after.tuVi ?? 0);
      const failed = (what: string) => (error: unknown) => {
        // Before the server listens (tests that never start chat) there is nobody to tell: not worth a warning.
        if (error instanceof ChatNotReadyError)
          log.debug({ userId: after.id }, `${what}: chat not ready`);
        else log.warn({ err: error, userId: after.id }, what);
      };
      await notify(after, realm).catch(failed('breakthrough notification not sent'));
      await announce(after, to, realm).catch(failed('breakthrough announcement not sent'));
    },
  };
}
