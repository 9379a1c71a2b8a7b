import { DEV_APP, loadConfig, type ChatServerConfig } from './config.ts';
import { trackRequests } from './http/drain.ts';
import { buildChatServer } from './server.ts';

// The only place the standalone chat server reads the environment.
let config: ChatServerConfig;
try {
  config = loadConfig(process.env);
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const app = await buildChatServer(config);
const requests = trackRequests(app.server);

/** Past the grace period, closing itself (websockets, write queue, pub/sub, database) gets this long. */
const CLOSE_TIMEOUT_MS = 5000;

let stopping = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  // A second signal while draining means "stop now".
  if (stopping) process.exit(1);
  stopping = true;
  app.log.info({ signal, graceMs: config.shutdownGraceMs }, 'shutting down: finishing requests');
  const cutOff = await requests.drain(config.shutdownGraceMs);
  if (cutOff > 0) app.log.warn({ requests: cutOff }, 'grace period over: requests cut off');
  setTimeout(() => {
    app.log.error({}, 'shutdown did not finish in time');
    process.exit(1);
  }, CLOSE_TIMEOUT_MS).unref();
  try {
    // Closes websockets with a code that makes clients reconnect, flushes the write queue, closes the database.
    await app.close();
  } catch (error) {
    app.log.error({ err: error }, 'error while shutting down');
    process.exit(1);
  }
  process.exit(0);
}
process.on('SIGINT', (signal) => void shutdown(signal));
process.on('SIGTERM', (signal) => void shutdown(signal));

await app.listen({ host: config.http.host, port: config.http.port });
if (config.apps.some((a) => a.key === DEV_APP.key)) {
  console.info(
    'chat server is using the development app (set STREAM_API_KEY / STREAM_API_SECRET for real use)',
  );
}
