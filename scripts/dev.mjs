// `npm run dev`: the product server (restarted by tsx on every change, embedded chat at /chat included) and the Vite
// dev server (hot reload), which proxies /api and /chat to it (apps/web/vite.config.ts). Open the URL Vite prints.
// Both run from the repository root, so the dev server uses the same ./data as `npm start`.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = fileURLToPath(import.meta.resolve('tsx/cli'));
const vite = join(
  fileURLToPath(new URL('.', import.meta.resolve('vite/package.json'))),
  'bin/vite.js',
);

const children = [
  spawn(process.execPath, [tsx, 'watch', '--clear-screen=false', 'apps/server/src/main.ts'], {
    cwd: root,
    stdio: 'inherit',
  }),
  spawn(process.execPath, [vite], { cwd: join(root, 'apps/web'), stdio: 'inherit' }),
];

let exiting = false;
function stopAll(signal) {
  for (const child of children) if (child.exitCode === null) child.kill(signal);
}
// Ctrl-C already reaches every process of the terminal's foreground group; passing SIGINT on as well would be a
// second signal, on which tsx watch kills the server in the middle of its graceful shutdown. SIGTERM reaches this
// process alone, so it is passed on.
process.on('SIGINT', () => {
  exiting = true;
});
process.on('SIGTERM', () => {
  exiting = true;
  stopAll('SIGTERM');
});
// Either one alone is no use: when one stops, stop the other and exit with the first one's status.
for (const child of children) {
  child.on('exit', (code, signal) => {
    if (!exiting) {
      exiting = true;
      process.exitCode = code ?? (signal ? 0 : 1);
      stopAll('SIGTERM');
    }
  });
}
