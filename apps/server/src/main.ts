import { trackRequests } from '@daohuu/chat-server';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import type { Config } from './config.ts';

function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

const config = loadConfigOrExit();
const app = await buildApp(config);
const requests = trackRequests(app.server);
await app.listen({ port: config.port, host: config.host });

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
app.log.info(`Đạo Hữu is running at ${config.publicUrl} (listening on ${config.host}:${port})`);

/** Past the grace period, closing itself (websockets, chat write queue, databases) gets this long. */
const CLOSE_TIMEOUT_MS = 5000;

let closing = false;
async function shutDown(signal: NodeJS.Signals): Promise<void> {
  // A second signal while closing means "stop now".
  if (closing) process.exit(1);
  closing = true;
  app.log.info(`${signal} received, finishing requests in progress, then shutting down`);
  // Stop accepting connections and let requests already received (chat sends included) finish first: Fastify's
  // close alone answers them 503.
  const cutOff = await requests.drain(config.shutdownGraceMs);
  if (cutOff > 0) app.log.warn({ requests: cutOff }, 'grace period over: requests cut off');
  setTimeout(() => {
    app.log.error('shutdown did not finish in time');
    process.exit(1);
  }, CLOSE_TIMEOUT_MS).unref();
  try {
    await app.close();
  } catch (error) {
    app.log.error({ err: error }, 'error while shutting down');
    process.exit(1);
  }
  process.exit(0);
}
process.on('SIGINT', (signal) => void shutDown(signal));
process.on('SIGTERM', (signal) => void shutDown(signal));

// Chat reaches the embedded chat server over HTTP, so this waits for listen; a failure here (e.g. the demo
// conversation could not be seeded) is logged and the server keeps serving.
try {
  await app.chat.onListening();
} catch (error) {
  app.log.error({ err: error }, 'chat setup after listen failed');
}
