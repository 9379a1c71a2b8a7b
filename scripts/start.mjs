// `npm start`: build the web app if it has never been built, then run the product server in this process's place.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const webIndex = join(root, 'apps/web/dist/index.html');

if (!existsSync(webIndex)) {
  console.info('Building the web app (first start)…');
  const build = spawnSync('npm', ['run', 'build', '-w', '@daohuu/web'], {
    cwd: root,
    stdio: 'inherit',
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const server = spawn(process.execPath, ['--import', 'tsx', join(root, 'apps/server/src/main.ts')], {
  cwd: process.cwd(),
  stdio: 'inherit',
});
// Forward signals so the server shuts down cleanly and this wrapper exits with it.
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
