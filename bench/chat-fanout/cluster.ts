// bench/chat-fanout/cluster.ts (`npm run bench:cluster`): issue 16's cluster figures. Fan-out to N watchers of one
// livestream channel on one node against two nodes (PostgreSQL + Redis, receivers split between the nodes, the
// sender on the first), with one SQLite node as the embedded baseline; then durable sends on SQLite against
// PostgreSQL. The generators, receivers, histogram and child handling are the fan-out benchmark's own.
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { renderClusterReport, updateClusterSection, type ClusterReport } from './cluster-report.ts';
import { runBench, runDurable, runFanout, type NodeLaunch, type Setup } from './orchestrator.ts';
import { parseOptions } from './options.ts';
import { oursAvailability } from './ours.ts';

const here = new URL('.', import.meta.url).pathname;
const options = parseOptions(process.argv.slice(2), 'cluster');
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
const redisUrl = process.env.REDIS_URL;
// Every node of every setup serves the same app, so a token minted for one node is valid on the other.
const apps = [
  { key: `bench-${randomBytes(4).toString('hex')}`, secret: randomBytes(16).toString('hex') },
];
const runId = `${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

runBench(options, async (run) => {
  const unavailable = oursAvailability();
  if (unavailable) throw new Error(`our chat server is not runnable: ${unavailable}`);
  const report: ClusterReport = {
    options,
    startedAt: new Date(),
    loadAverages: [loadavg()[0] ?? 0],
    fanout: [],
    durable: [],
    failures: run.failures,
  };
  const sampler = setInterval(() => report.loadAverages.push(loadavg()[0] ?? 0), 5_000);
  sampler.unref();

  /** A fresh PostgreSQL database on the benchmark's server, dropped when the run exits. */
  const freshDatabase = async (tag: string): Promise<string> => {
    if (!databaseUrl) throw new Error('set BENCH_DATABASE_URL or TEST_DATABASE_URL for PostgreSQL');
    const name = `bench_cluster_${runId}_${tag.replace(/\W/g, '_')}`;
    await adminQuery(databaseUrl, `create database ${name}`);
    run.onExit(() => adminQuery(databaseUrl, `drop database if exists ${name} with (force)`));
    const url = new URL(databaseUrl);
    url.pathname = `/${name}`;
    return url.toString();
  };
  const redis = (tag: string) => {
    if (!redisUrl) throw new Error('set REDIS_URL for the Redis pub/sub of PostgreSQL setups');
    return { kind: 'redis', url: redisUrl, keyPrefix: `bench-cluster:${runId}:${tag}:` };
  };
  const node = (config: Record<string, unknown>): NodeLaunch => ({
    kind: 'ours',
    config: { apps, ...config },
  });
  const setup = (name: string, nodes: NodeLaunch[]): Setup => ({
    name,
    kind: 'ours',
    nodes,
    meterBackends: true,
  });
  const sqliteNode = (): NodeLaunch => node({ pubsub: { kind: 'memory' } });

  const fanoutSetup = async (name: string, n: number): Promise<Setup> => {
    const tag = `fanout_${n}_${name}`;
    if (name === 'sqlite') return setup(name, [sqliteNode()]);
    const db = { kind: 'postgres', url: await freshDatabase(tag) };
    if (name === 'pg') return setup(name, [node({ db, pubsub: redis(tag) })]);
    if (name === 'pg-2nodes') {
      const shared = { db, pubsub: redis(tag) };
      return setup(name, [node(shared), node(shared)]);
    }
    throw new Error(`--setups: unknown setup "${name}" (sqlite, pg, pg-2nodes)`);
  };
  const durableSetup = async (name: string): Promise<Setup> => {
    const tag = `durable_${name}`;
    if (name === 'sqlite') return setup(name, [sqliteNode()]);
    const db = { kind: 'postgres', url: await freshDatabase(tag) };
    if (name === 'pg') return setup(name, [node({ db, pubsub: { kind: 'memory' } })]);
    if (name === 'pg-redis') return setup(name, [node({ db, pubsub: redis(tag) })]);
    throw new Error(`--durable-setups: unknown setup "${name}" (sqlite, pg, pg-redis)`);
  };

  if (options.fanout) {
    for (const n of options.ns) {
      await run.phase(`fan-out N=${n}`, async () => {
        const setups: Setup[] = [];
        for (const name of options.clusterSetups) setups.push(await fanoutSetup(name, n));
        report.fanout.push(...(await runFanout(setups, n, options)));
      });
    }
  }
  if (options.durable) {
    for (const name of options.durableSetups) {
      await run.phase(
        `durable ${name}`,
        async () => void report.durable.push(await runDurable(await durableSetup(name), options)),
      );
    }
  }

  clearInterval(sampler);
  const rendered = renderClusterReport(report);
  console.info(rendered);
  if (options.write && !run.deadlinePassed) {
    const path = join(here, '..', '..', 'BENCHMARKS.md');
    updateClusterSection(path, rendered);
    console.error(`✔ wrote the cluster section of ${path}`);
  }
});

async function adminQuery(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
