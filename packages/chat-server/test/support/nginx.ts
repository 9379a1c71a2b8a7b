import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/*
 * The shipped nginx site (docs/deploy/nginx.conf), unchanged but for its ports, run by Debian's nginx binary in front
 * of test chat nodes: what docs/deploy.md tells an operator to run.
 */

/** Debian's nginx, when installed (tests skip without it). */
export const NGINX_BINARY = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));

const SITE = join(import.meta.dirname, '../../../../docs/deploy/nginx.conf');
const START_TIMEOUT_MS = 10_000;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface RunningNginx {
  /** The chat API through nginx: http://127.0.0.1:<port>/chat */
  chatURL: string;
  /** `upstream method uri status` per request, from the access log. */
  accessLog(): string[];
  stop(): Promise<void>;
}

/** Starts the shipped site in front of the two chat nodes listening on `nodePorts`. */
export async function startNginx(nodePorts: [number, number]): Promise<RunningNginx> {
  if (!NGINX_BINARY) throw new Error('nginx is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'chat-nginx-'));
  const listen = await freePort();
  const conf = join(dir, 'nginx.conf');
  writeFileSync(conf, nginxConfig(dir, listen, nodePorts));
  // `-e`: nginx opens its error log before reading the configuration; the default path needs root.
  const args = ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf];
  const check = spawnSync(NGINX_BINARY, ['-t', '-q', ...args], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`nginx -t failed: ${check.stderr}`);
  const nginx = spawn(NGINX_BINARY, args, { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => nginx.once('exit', () => resolve()));
  await waitForListening(listen, nginx, dir);
  return {
    chatURL: `http://127.0.0.1:${listen}/chat`,
    accessLog: () => readFileSync(join(dir, 'access.log'), 'utf8').split('\n').filter(Boolean),
    async stop() {
      if (nginx.exitCode === null) nginx.kill('SIGQUIT');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The shipped site with the test's ports, inside a minimal main configuration writing only under `dir`. */
function nginxConfig(dir: string, listen: number, [first, second]: [number, number]): string {
  const shipped = readFileSync(SITE, 'utf8');
  if (shipped.match(/127\.0\.0\.1:330[12]\b/g)?.length !== 2)
    throw new Error('the shipped nginx site no longer names the two chat nodes 3301 and 3302');
  const site = shipped
    .replace('listen 8080;', `listen 127.0.0.1:${listen};`)
    // One pass: replacing one port after the other would rewrite a first port that begins with 3302 (say 33021).
    .replace(/127\.0\.0\.1:330([12])\b/g, (_, node: string) =>
      node === '1' ? `127.0.0.1:${first}` : `127.0.0.1:${second}`,
    );
  writeFileSync(join(dir, 'site.conf'), site);
  for (const temp of ['body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(join(dir, temp));
  return `
daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  log_format upstreams '$upstream_addr $request_method $uri $status';
  access_log ${dir}/access.log upstreams;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/site.conf;
}
`;
}

async function waitForListening(port: number, nginx: ChildProcess, dir: string): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (nginx.exitCode !== null)
      throw new Error(`nginx exited: ${readFileSync(join(dir, 'error.log'), 'utf8')}`);
    const answered = await fetch(`http://127.0.0.1:${port}/chat/`).then(
      () => true,
      () => false,
    );
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('nginx did not start listening');
}
