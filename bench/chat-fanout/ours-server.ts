// Our chat server as the benchmark's server-under-test child process, started through its public test harness:
// 127.0.0.1, a free port, a fresh on-disk SQLite file (WAL), logging off — the same footing as the baseline. The
// cluster benchmark passes PostgreSQL, Redis and the app credentials its nodes share as JSON in BENCH_CHAT_CONFIG.
// Run as a child process: `node --import tsx bench/chat-fanout/ours-server.ts`.
import type { ChatServerConfig, DeepPartial } from '../../packages/chat-server/src/config.ts';
import { startTestChatServer } from '../../packages/chat-server/src/testing/harness.ts';
import { announceReady, exitOnStop } from './child-protocol.ts';
import { answerProfileRequests } from './phase-profiler.ts';

const overrides = JSON.parse(
  process.env.BENCH_CHAT_CONFIG ?? '{}',
) as DeepPartial<ChatServerConfig>;
// The benchmark measures throughput from one address and one sender: the rate limits would only cap it.
const server = await startTestChatServer({
  config: { ...overrides, rateLimits: { enabled: false } },
});
answerProfileRequests();
exitOnStop(() => server.close());
announceReady({ baseURL: server.baseURL, apiKey: server.apiKey, apiSecret: server.apiSecret });
