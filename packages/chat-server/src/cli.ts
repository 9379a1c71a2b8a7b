import { DEV_APP, loadConfig, type ChatServerConfig } from './config.ts';
import { shutDownOnSignals, trackRequests } from './http/drain.ts';
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

shutDownOnSignals(app, requests, config.shutdownGraceMs);

await app.listen({ host: config.http.host, port: config.http.port });
if (config.apps.some((a) => a.key === DEV_APP.key)) {
  console.info(
    'chat server is using the development app (set STREAM_API_KEY / STREAM_API_SECRET for real use)',
  );
}
