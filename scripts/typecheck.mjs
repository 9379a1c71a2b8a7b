// Typechecks the root scripts and every workspace with one compiler, failing on the first broken project.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const { workspaces } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const projects = ['.', ...workspaces];
let failed = false;
for (const project of projects) {
  const started = Date.now();
  const result = spawnSync(join(root, 'node_modules/.bin/tsc'), ['--noEmit', '-p', project], {
    cwd: root,
    stdio: 'inherit',
  });
  const ok = result.status === 0;
  console.info(`typecheck ${project}: ${ok ? 'ok' : 'FAILED'} (${Date.now() - started} ms)`);
  failed ||= !ok;
}
process.exit(failed ? 1 : 0);
