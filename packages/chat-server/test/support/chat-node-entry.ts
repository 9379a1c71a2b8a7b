import { parseConfig } from '../../src/config.ts';
import { shutDownOnSignals, trackRequests } from '../../src/http/drain.ts';
import { buildChatServer } from '../../src/server.ts';

/*
 * A chat node as its own OS process, for tests that kill one with SIGKILL or watch one survive an outage: the same
 * start-up as src/cli.ts, but the whole configuration comes as JSON in CHAT_NODE_CONFIG (the environment cannot
 * express a PostgreSQL schema, a Redis key prefix or a short presence TTL). Spoken to over the IPC channel of
 * `spawnChatNode` (node-process.ts): it reports its port once listening and answers socket-count questions.
 */

const config = parseConfig(JSON.parse(process.env.CHAT_NODE_CONFIG ?? '{}'));
let sockets = () => 0;
const app = await buildChatServer(config, {
  onReady: (runtime) => {
    sockets = () => runtime.deps.hub.size;
  },
});
const requests = trackRequests(app.server);
shutDownOnSignals(app, requests, config.shutdownGraceMs);
await app.listen({ host: config.http.host, port: config.http.port });

const address = app.server.address();
process.send?.({ kind: 'listening', port: typeof address === 'object' ? address?.port : 0 });
process.on('message', (message) => {
  if (message === 'sockets') process.send?.({ kind: 'sockets', count: sockets() });
});
// The test runner went away without stopping this node: do not outlive it.
process.on('disconnect', () => process.exit(0));
