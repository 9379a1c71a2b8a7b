// What the search benches share: the searcher they query as, its channel filter, and the queries they time.
import type { Actor } from '../../packages/chat-server/src/chat/core/access/access.ts';
import { createCorpus } from './corpus.ts';

/** The seeded searcher: a plain user and a member of every channel (bench/search/seed.ts). */
export const SEARCHER: Actor = {
  appId: 'bench',
  userId: 'searcher',
  role: 'user',
  isServer: false,
  connectionId: null,
};

/** The channel filter of every timed query: the searcher's own channels, as stream-chat-react sends it. */
export const SEARCHER_CHANNELS = { members: { $in: [SEARCHER.userId] } };

/** The two-word queries `bench:search` times: the corpus drawn past its seeded messages, with the same seed. */
export function twoWordQueries(messages: number, count: number): string[] {
  const corpus = createCorpus(20_260_101);
  for (let i = 0; i < messages; i++) corpus.message();
  return Array.from({ length: count }, () => corpus.twoWordQuery());
}
