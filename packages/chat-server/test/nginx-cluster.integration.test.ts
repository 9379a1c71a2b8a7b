import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from 'stream-chat';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestChatServer } from '../src/testing/harness.ts';
import {
  connectUser,
  contractEnvOn,
  createUsers,
  disconnectClients,
  type ContractEnv,
  uniqueId,
  waitForEvent,
  watchChannel,
} from './contract/helpers.ts';
import { startTwoNodes, type TwoNodes } from './two-nodes.ts';

/*
 * The shipped nginx site (docs/deploy/nginx.conf), unchanged but for its ports, in front of two chat nodes sharing
 * one database and Redis: what docs/deploy.md tells an operator to run. nginx balances round robin without
 * stickiness, so a client's REST calls and its websocket land on different nodes.
 */

const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
const redisUrl = process.env.REDIS_URL;
const SITE = join(import.meta.dirname, '../../../docs/deploy/nginx.conf');

async function freePort(): Promise<number> {
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

const portOf = (node: TestChatServer) => Number(new URL(node.baseURL).port);

/** The shipped site with the test's ports, inside a minimal main configuration writing only under `dir`. */
function nginxConfig(dir: string, listen: number, nodes: TestChatServer[]): string {
  const site = readFileSync(SITE, 'utf8')
    .replace('listen 8080;', `listen 127.0.0.1:${listen};`)
    .replace('127.0.0.1:3301', `127.0.0.1:${portOf(nodes[0]!)}`)
    .replace('127.0.0.1:3302', `127.0.0.1:${portOf(nodes[1]!)}`);
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
  const deadline = Date.now() + 10_000;
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

describe.runIf(NGINX && redisUrl)(
  'two chat nodes behind the shipped nginx site',
  { timeout: 60_000 },
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-nginx-'));
    let cluster: TwoNodes;
    let nodes: TestChatServer[] = [];
    let nginx: ChildProcess | undefined;
    let env: ContractEnv;

    beforeAll(async () => {
      cluster = await startTwoNodes(redisUrl!, 'nginx');
      nodes = [...cluster.nodes];
      const listen = await freePort();
      const conf = join(dir, 'nginx.conf');
      writeFileSync(conf, nginxConfig(dir, listen, nodes));
      // `-e`: nginx opens its error log before reading the configuration; the default path needs root.
      const check = spawnSync(
        NGINX!,
        ['-t', '-q', '-p', dir, '-e', join(dir, 'error.log'), '-c', conf],
        { encoding: 'utf8' },
      );
      expect(check.status, check.stderr).toBe(0);
      nginx = spawn(NGINX!, ['-p', dir, '-e', join(dir, 'error.log'), '-c', conf], {
        stdio: 'ignore',
      });
      await waitForListening(listen, nginx, dir);
      env = contractEnvOn({ ...nodes[0]!, baseURL: `http://127.0.0.1:${listen}/chat` });
    });

    afterAll(async () => {
      if (env) await disconnectClients(env);
      nginx?.kill('SIGQUIT');
      await cluster?.close();
      rmSync(dir, { recursive: true, force: true });
    });

    /** The chat nodes nginx sent requests to, from its access log. */
    const upstreamsUsed = () =>
      new Set(
        readFileSync(join(dir, 'access.log'), 'utf8')
          .split('\n')
          .filter((line) => line.includes('/channels/'))
          .map((line) => line.split(' ')[0]),
      );

    it('delivers every message, in order, to a watcher whose REST calls and websocket land on different nodes', async () => {
      const namId = uniqueId('nam');
      const bacId = uniqueId('bac');
      await createUsers(env, [namId, bacId]);
      const nam = await connectUser(env, namId);
      const bac = await connectUser(env, bacId);
      const channelId = uniqueId('qua-nginx');
      const namChannel = await watchChannel(nam, 'messaging', channelId, {
        members: [namId, bacId],
      });
      // Several watches: round robin sends them to both nodes, and each must reach the node holding bac's socket.
      const bacChannel = await watchChannel(bac, 'messaging', channelId);
      for (let i = 0; i < 3; i++) await bacChannel.watch();

      const received: string[] = [];
      bacChannel.on('message.new', (event: Event) => {
        if (event.message?.text) received.push(event.message.text);
      });
      const texts = Array.from({ length: 30 }, (_, i) => `Tin số ${i + 1}`);
      for (const text of texts.slice(0, -1)) await namChannel.sendMessage({ text });
      // The wait starts before the last send only: thirty sends on a loaded machine outlast one event's timeout.
      const last = waitForEvent(bacChannel, 'message.new', (e) => e.message?.text === texts.at(-1));
      await namChannel.sendMessage({ text: texts.at(-1)! });
      await last;
      expect(received).toEqual(texts);
      expect(upstreamsUsed()).toEqual(new Set(nodes.map((node) => `127.0.0.1:${portOf(node)}`)));
    });

    /** Waits (bounded) until the nodes hold `total` sockets between them: closes reach the servers a moment later. */
    async function socketsSettle(total: number): Promise<number[]> {
      const deadline = Date.now() + 5_000;
      let counts = nodes.map((node) => node.socketCount());
      while (counts.reduce((a, b) => a + b, 0) !== total && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        counts = nodes.map((node) => node.socketCount());
      }
      return counts;
    }

    it('moves the clients of a node that shuts down to the other one, and loses no acknowledged message', async () => {
      await disconnectClients(env);
      const namId = uniqueId('nam');
      const bacId = uniqueId('bac');
      await createUsers(env, [namId, bacId]);
      const nam = await connectUser(env, namId);
      const bac = await connectUser(env, bacId);
      const channelId = uniqueId('chuyen-nut');
      const namChannel = await watchChannel(nam, 'messaging', channelId, {
        members: [namId, bacId],
      });
      const bacChannel = await watchChannel(bac, 'messaging', channelId);
      const acknowledged: string[] = [];
      for (let i = 0; i < 5; i++)
        acknowledged.push((await namChannel.sendMessage({ text: `Trước ${i}` })).message.id);

      // The node holding bac's socket goes away: close nam first, so bac's is the only socket left.
      await nam.disconnectUser();
      expect((await socketsSettle(1)).sort()).toEqual([0, 1]);
      const leaving = nodes.find((node) => node.socketCount() === 1)!;
      const namAgain = await connectUser(env, namId);
      const namChannelAgain = await watchChannel(namAgain, 'messaging', channelId);
      const recovered = waitForEvent(bac, 'connection.recovered');
      await leaving.close();
      nodes = nodes.filter((node) => node !== leaving);
      await recovered;
      const arrived = waitForEvent(bacChannel, 'message.new', (e) => e.message?.text === 'Sau');
      acknowledged.push((await namChannelAgain.sendMessage({ text: 'Sau' })).message.id);
      await arrived;

      const stored = await bacChannel.query({ messages: { limit: 50 } });
      const ids = (stored.messages ?? []).map((message) => message.id);
      expect(ids).toEqual(acknowledged);
    });
  },
);
