import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';

const CLI = fileURLToPath(new URL('./cli.ts', import.meta.url));

/**
 * Runs `npm run backup`'s command every BACKUP_INTERVAL_HOURS in a child process: a large database's copy then never
 * stalls this process's event loop, and the child reads the same environment, so it backs up what this server
 * serves. A run still going when the next is due is not doubled. Returns the stop function.
 */
export function scheduleBackups(config: Config, log: FastifyBaseLogger): () => void {
  if (config.backup.intervalMs === 0) return () => {};
  let running = false;
  const run = () => {
    if (running) return;
    running = true;
    const child = spawn(process.execPath, ['--import', 'tsx', CLI], {
      cwd: process.cwd(),
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => {
      running = false;
      if (code === 0) log.info(output.trim());
      else log.error({ code }, `scheduled backup failed: ${output.trim()}`);
    });
  };
  const timer = setInterval(run, config.backup.intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
