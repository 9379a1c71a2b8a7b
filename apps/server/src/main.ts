import { shutDownOnSignals, trackRequests } from '@daohuu/chat-server';
import { buildApp } from './app.ts';
import { scheduleBackups } from './backup/schedule.ts';
import { startupBanner } from './banner.ts';
import { logIsPretty } from './http/log-output.ts';
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
// The banner is for the person who ran `npm start`; a machine reading JSON lines gets it as one log line.
if (logIsPretty(config)) process.stdout.write(startupBanner(config, port));
else
  app.log.info(`Đạo Hữu is running at ${config.publicUrl} (listening on ${config.host}:${port})`);

// Requests already received (chat sends included) finish before the app closes: Fastify's close alone
// answers them 503.
shutDownOnSignals(app, requests, config.shutdownGraceMs);
scheduleBackups(config, app.log);

// Chat reaches the embedded chat server over HTTP, so this waits for listen; a failure here (e.g. the demo
// conversation could not be seeded) is logged and the server keeps serving.
try {
  await app.chat.onListening();
} catch (error) {
  app.log.error({ err: error }, 'chat setup after listen failed');
}
