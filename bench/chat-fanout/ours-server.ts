// Our chat server as the benchmark's server-under-test child process, started through its public test harness:
// 127.0.0.1, a free port, a fresh on-disk SQLite file (WAL), logging off — the same footing as the baseline.
// Run as a child process: `node --import tsx bench/chat-fanout/ours-server.ts`.
import { startTestChatServer } from '../../packages/chat-server/src/testing/harness.ts';
import { announceReady, exitOnStop } from './child-protocol.ts';
import { answerProfileRequests } from './phase-profiler.ts';

const server = await startTestChatServer();
answerProfileRequests();
exitOnStop(() => server.close());
announceReady({ baseURL: server.baseURL, apiKey: server.apiKey, apiSecret: server.apiSecret });
