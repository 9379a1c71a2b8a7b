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
await app.listen({ port: config.port, host: config.host });

const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
app.log.info(`Đạo Hữu is running at ${config.publicUrl} (listening on ${config.host}:${port})`);

let closing = false;
function shutDown(signal: NodeJS.Signals): void {
  // A second signal while closing means "stop now".
  if (closing) process.exit(1);
  closing = true;
  app.log.info(`${signal} received, shutting down`);
  app.close().then(
    () => process.exit(0),
    (error: unknown) => {
      app.log.error({ err: error }, 'error while shutting down');
      process.exit(1);
    },
  );
}
process.on('SIGINT', shutDown);
process.on('SIGTERM', shutDown);

// Chat reaches the embedded chat server over HTTP, so this waits for listen; a failure here (e.g. the demo
// conversation could not be seeded) is logged and the server keeps serving.
try {
  await app.chat.onListening();
} catch (error) {
  app.log.error({ err: error }, 'chat setup after listen failed');
}
