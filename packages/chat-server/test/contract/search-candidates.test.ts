import { describe, expect, it } from 'vitest';
import type { SearchOptions, StreamChat } from 'stream-chat';
import {
  connectUser,
  createChannelAsServer,
  createUsers,
  uniqueId,
  useContractEnv,
} from './helpers.ts';

/*
 * GET /search ranks a bounded set of candidates (extensions/search/service.ts SEARCH_CANDIDATES, docs/compatibility.md):
 * sorted by relevance or newest first, each page is taken from the newest 2,000 matches that sort after where the
 * previous page ended. These tests store more than 2,000 matching messages through the real server.
 */

const CAP = 2_000;
const FILLERS = CAP + 50;
const SENDS_IN_FLIGHT = 8;
const PAGE = 100;
const SEEDING_MS = 240_000;

describe('a search matching more than 2,000 messages', () => {
  const env = useContractEnv();

  /**
   * One channel: first an old message with the text exactly as the searcher types it (the best rank), then
   * FILLERS newer ones with the same words accented (a lower rank), stored server-side a few at a time.
   */
  async function seedCrowdedChannel() {
    const searcherId = uniqueId('searcher');
    const authorId = uniqueId('author');
    await createUsers(env(), [searcherId, authorId]);
    const channelId = uniqueId('crowded');
    await createChannelAsServer(env(), 'messaging', channelId, authorId, {
      members: [searcherId, authorId],
    });
    const channel = env().admin.channel('messaging', channelId);
    const send = async (text: string) =>
      (await channel.sendMessage({ user_id: authorId, text })).message.id;
    const oldExact = await send('phong van');
    const fillers: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < FILLERS) {
        const n = next++;
        fillers.push(await send(`Phong Vân hội số ${n}`));
      }
    };
    await Promise.all(Array.from({ length: SENDS_IN_FLIGHT }, worker));
    const searcher = await connectUser(env(), searcherId);
    return { searcher, cid: `messaging:${channelId}`, oldExact, fillers };
  }

  // Both tests only read the channel: it is stored once, by the first test that asks for it.
  let crowded: ReturnType<typeof seedCrowdedChannel> | undefined;
  const crowdedChannel = () => (crowded ??= seedCrowdedChannel());

  /** Every page of a search with `next`, at most `maxPages` of them. */
  async function allPages(
    searcher: StreamChat,
    cid: string,
    options: SearchOptions,
    maxPages: number,
  ) {
    const seen: { id: string; created_at: string }[] = [];
    let response = await searcher.search({ cid }, 'phong van', { ...options, limit: PAGE });
    const pages = [response.results.map((r) => r.message.id)];
    for (let page = 1; response.next && page < maxPages; page++) {
      seen.push(...response.results.map(({ message }) => pick(message)));
      response = await searcher.search({ cid }, 'phong van', { limit: PAGE, next: response.next });
      pages.push(response.results.map((r) => r.message.id));
    }
    seen.push(...response.results.map(({ message }) => pick(message)));
    return { seen, pages, next: response.next };
  }

  const pick = (message: { id: string; created_at?: string }) => ({
    id: message.id,
    created_at: String(message.created_at),
  });

  const newestFirst = (list: { created_at: string }[]) =>
    list.every((item, i) => i === 0 || list[i - 1]!.created_at >= item.created_at);

  it(
    'ranks the newest 2,000 matches: an older message with the text as typed is left out, and next walks every newer match, newest first, once each',
    async () => {
      const { searcher, cid, oldExact, fillers } = await crowdedChannel();
      const { seen, pages, next } = await allPages(searcher, cid, {}, FILLERS / PAGE + 5);
      // Within the newest 2,000 the exact text would rank first; outside them it is never a candidate.
      expect(pages[0]).toHaveLength(PAGE);
      expect(pages[0]).not.toContain(oldExact);
      expect(seen.map((m) => m.id)).not.toContain(oldExact);
      // Each page starts after the last one, so the walk reaches past the first 2,000 to the oldest filler.
      expect(seen.map((m) => m.id).sort()).toEqual([...fillers].sort());
      expect(newestFirst(seen)).toBe(true);
      expect(next).toBeUndefined();
    },
    SEEDING_MS,
  );

  it(
    'sorted newest first, next reaches every match including the oldest, and an offset page is the same as the walk',
    async () => {
      const { searcher, cid, oldExact, fillers } = await crowdedChannel();
      const sort = [{ created_at: -1 }] as SearchOptions['sort'];
      const { seen, next } = await allPages(searcher, cid, { sort }, FILLERS / PAGE + 5);
      expect(seen).toHaveLength(FILLERS + 1);
      expect(new Set(seen.map((m) => m.id)).size).toBe(FILLERS + 1);
      expect(seen.at(-1)?.id).toBe(oldExact);
      expect(
        seen
          .slice(0, -1)
          .map((m) => m.id)
          .sort(),
      ).toEqual([...fillers].sort());
      expect(newestFirst(seen)).toBe(true);
      expect(next).toBeUndefined();
      // The deepest offset Stream allows, in the default order: the 1,001st to 1,100th newest fillers.
      const deep = await searcher.search({ cid }, 'phong van', { limit: PAGE, offset: 1000 });
      expect(deep.results.map((r) => r.message.id)).toEqual(
        seen.slice(1000, 1000 + PAGE).map((m) => m.id),
      );
    },
    SEEDING_MS,
  );
});
