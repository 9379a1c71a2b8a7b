import { parseArgs } from 'node:util';

export type ServerKind = 'baseline' | 'ours';

export interface Options {
  ns: number[];
  ratesByN: Map<number, number[]>;
  stepSeconds: number;
  drainSeconds: number;
  busyRetries: number;
  /** Connect-and-watch rounds at the largest N, each on fresh servers (0: none). */
  stormRounds: number;
  connectInFlight: number;
  servers: ServerKind[];
  fanout: boolean;
  durable: boolean;
  durableSeconds: number;
  durableInFlight: number;
  durableChannels: number;
  channelType: string;
  addMembers: boolean;
  profileDir: string | null;
  write: boolean;
  maxSeconds: number;
  quietWaitSeconds: number;
  nice: number;
  command: string;
  /** Cluster benchmark only (cluster.ts): fan-out and durable setups to run, in order. */
  clusterSetups: string[];
  durableSetups: string[];
}

export type BenchMode = 'baseline' | 'cluster';

export const USAGE = `npm run bench:chat-fanout -- [flags]
  --quick                 N=1000 only, 2 s steps, 5 s durable run, does not write BENCHMARKS.md
  --n=1000,10000          watcher counts
  --rates-<N>=a,b,c       msg/s steps for that N (defaults: 1000 → 10,50,100,200; 10000 → 2,5,10,20,50)
  --step-seconds=4        seconds per rate step
  --drain-seconds=10      longest wait for a step's backlog
  --busy-retries=1        repeat a step while other processes use > 25 % of a core (keeps the quietest attempt)
  --storm-rounds=5        reconnect storms at the largest N, each on fresh servers taking turns to go first
                          (default 5; 0 with --quick); they run with --no-fanout too
  --servers=baseline,ours which servers to run
  --no-fanout / --no-durable
  --durable-seconds=15 --durable-in-flight=64 --durable-channels=16
  --channel-type=livestream --add-members  channel type watched; add watchers as members first
  --profile=<dir>         CPU-profile the servers phase by phase (connect, watch, each rate, sends) into <dir>
  --write / --no-write    update BENCHMARKS.md (default: write unless --quick)
  --max-seconds=1200      hard stop: stops every child, prints what was measured, writes nothing
  --quiet-wait-seconds=10 before each server starts, wait up to this long for other processes to go quiet
  --nice=-10              scheduling priority of servers and generators (below 0 needs root; else ignored)`;

export const CLUSTER_USAGE = `npm run bench:cluster -- [flags]
  One node against two on PostgreSQL + Redis (BENCH_DATABASE_URL or TEST_DATABASE_URL, REDIS_URL; a fresh database
  per setup, dropped at the end), and durable sends on PostgreSQL against SQLite.
  --quick                 N=1000, 2 s steps, 5 s durable runs, does not write BENCHMARKS.md
  --n=10000               watcher counts (default 10000)
  --setups=sqlite,pg,pg-2nodes        fan-out setups: one node on SQLite without Redis, one node on PostgreSQL +
                                      Redis, two nodes on PostgreSQL + Redis (receivers split, sender on node 1)
  --durable-setups=sqlite,pg,pg-redis durable setups: SQLite, PostgreSQL, PostgreSQL + Redis pub/sub (one node)
  --max-seconds=1800      hard stop: stops every child, drops the databases, prints what was measured, writes nothing
  --write / --no-write, --rates-<N>, --step-seconds, --drain-seconds, --busy-retries, --no-fanout,
  --no-durable, --durable-seconds, --quiet-wait-seconds, --nice: as for bench:chat-fanout`;

const DEFAULT_RATES = new Map<number, number[]>([
  [1000, [10, 50, 100, 200]],
  [10000, [2, 5, 10, 20, 50]],
]);

export function parseOptions(argv: string[], mode: BenchMode = 'baseline'): Options {
  const rateFlags = argv.filter((arg) => /^--rates-\d+=/.test(arg));
  const { values } = parseArgs({
    args: argv.filter((arg) => !rateFlags.includes(arg)),
    options: {
      quick: { type: 'boolean', default: false },
      n: { type: 'string' },
      'step-seconds': { type: 'string' },
      'drain-seconds': { type: 'string', default: '10' },
      'busy-retries': { type: 'string', default: '1' },
      'storm-rounds': { type: 'string' },
      'connect-in-flight': { type: 'string', default: '200' },
      servers: { type: 'string', default: 'baseline,ours' },
      'no-fanout': { type: 'boolean', default: false },
      'no-durable': { type: 'boolean', default: false },
      'durable-seconds': { type: 'string' },
      'durable-in-flight': { type: 'string', default: '64' },
      'durable-channels': { type: 'string', default: '16' },
      'channel-type': { type: 'string', default: 'livestream' },
      'add-members': { type: 'boolean', default: false },
      profile: { type: 'string' },
      write: { type: 'boolean' },
      'no-write': { type: 'boolean', default: false },
      'max-seconds': { type: 'string' },
      'quiet-wait-seconds': { type: 'string', default: '10' },
      nice: { type: 'string', default: '-10' },
      setups: { type: 'string', default: 'sqlite,pg,pg-2nodes' },
      'durable-setups': { type: 'string', default: 'sqlite,pg,pg-redis' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.info(mode === 'cluster' ? CLUSTER_USAGE : USAGE);
    process.exit(0);
  }
  const quick = values.quick;
  const ratesByN = new Map(DEFAULT_RATES);
  if (quick) ratesByN.set(1000, [10, 50, 100]);
  for (const flag of rateFlags) {
    const [name = '', list = ''] = flag.split('=');
    ratesByN.set(Number(name.slice('--rates-'.length)), numbers(list, flag));
  }
  const servers = (values.servers ?? '').split(',').map((name) => {
    if (name !== 'baseline' && name !== 'ours')
      throw new Error(`--servers: unknown server "${name}"`);
    return name;
  });
  return {
    ns: numbers(values.n ?? (quick ? '1000' : mode === 'cluster' ? '10000' : '1000,10000'), '--n'),
    ratesByN,
    stepSeconds: number(values['step-seconds'] ?? (quick ? '2' : '4'), '--step-seconds'),
    drainSeconds: number(values['drain-seconds'], '--drain-seconds'),
    busyRetries: Number(values['busy-retries']),
    stormRounds: count(values['storm-rounds'] ?? (quick ? '0' : '5'), '--storm-rounds'),
    connectInFlight: number(values['connect-in-flight'], '--connect-in-flight'),
    servers,
    fanout: !values['no-fanout'],
    durable: !values['no-durable'],
    durableSeconds: number(values['durable-seconds'] ?? (quick ? '5' : '15'), '--durable-seconds'),
    durableInFlight: number(values['durable-in-flight'], '--durable-in-flight'),
    durableChannels: number(values['durable-channels'], '--durable-channels'),
    channelType: values['channel-type'],
    addMembers: values['add-members'],
    profileDir: values.profile ?? null,
    write: values['no-write'] ? false : (values.write ?? !quick),
    // Three setups of 10,000 watchers took 13–14 minutes on a saturated box (BENCHMARKS.md, "Cluster"); the storm
    // rounds add about half a minute each.
    maxSeconds: number(
      values['max-seconds'] ?? (mode === 'cluster' ? '1800' : '1200'),
      '--max-seconds',
    ),
    quietWaitSeconds: Number(values['quiet-wait-seconds']),
    nice: Number(values.nice),
    command: [
      mode === 'cluster' ? 'npm run bench:cluster' : 'npm run bench:chat-fanout',
      ...(argv.length ? ['--', ...argv] : []),
    ].join(' '),
    clusterSetups: (values.setups ?? '').split(',').filter(Boolean),
    durableSetups: (values['durable-setups'] ?? '').split(',').filter(Boolean),
  };
}

/** Rates for a watcher count without its own list: scaled so each step asks for the same deliveries/s as 1k. */
export function ratesFor(options: Options, n: number): number[] {
  return (
    options.ratesByN.get(n) ??
    (options.ratesByN.get(1000) ?? [10]).map((rate) => Math.max(1, (rate * 1000) / n))
  );
}

function numbers(list: string, flag: string): number[] {
  return list.split(',').map((item) => number(item, flag));
}

function count(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${flag}: "${text}" is not a whole number`);
  return value;
}

function number(text: string, flag: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value <= 0)
    throw new Error(`${flag}: "${text}" is not a positive number`);
  return value;
}
