// What both benchmark entry points (index.ts: ours against bare baselines; cluster.ts: one node against two, and
// PostgreSQL against SQLite) share: starting servers and generators as child processes, alternating rate steps
// between setups, the hard deadline, and stopping every child by pid whatever happens.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Children, GeneratorLink, waitForReady, type Tracked } from './children.ts';
import type { ServerInfo } from './child-protocol.ts';
import { waitForQuietBox } from './proc-stats.ts';
import { ratesFor, type Options, type ServerKind } from './options.ts';
import { oursServerLaunch } from './ours.ts';
import {
  stopReason,
  type DurableConfig,
  type DurableResult,
  type FanoutConfig,
  type FanoutResult,
  type StepResult,
} from './results.ts';

const here = new URL('.', import.meta.url).pathname;
const children = new Children();
const workDir = mkdtempSync(join(tmpdir(), 'chat-fanout-'));

/** One server process to start: the bare baseline, or ours with config overrides (database, pub/sub, apps). */
export interface NodeLaunch {
  kind: ServerKind;
  config?: Record<string, unknown>;
}

/** What one row of a report measures: one or more nodes of one kind; receivers are spread over the nodes. */
export interface Setup {
  /** One word (labels are split on spaces): `ours`, `baseline`, `pg-2nodes`… */
  name: string;
  kind: ServerKind;
  nodes: NodeLaunch[];
  /** PostgreSQL and Redis are part of this setup: meter their CPU apart from "other". */
  meterBackends: boolean;
}

interface RunningServer {
  tracked: Tracked;
  info: ServerInfo;
  pid: number;
}

async function startServer(
  node: NodeLaunch,
  options: Options,
  purpose: 'fanout' | 'durable',
  tag: string,
): Promise<RunningServer> {
  if (options.quietWaitSeconds > 0) {
    const busy = await waitForQuietBox(options.quietWaitSeconds * 1000);
    if (busy >= 25)
      console.error(
        `  ! other processes still use ${busy.toFixed(0)} % of a core; measuring anyway`,
      );
  }
  let running: RunningServer;
  if (node.kind === 'baseline') {
    const args = purpose === 'durable' ? ['--sqlite', join(workDir, `baseline-${tag}.sqlite`)] : [];
    const tracked = children.start(`baseline server (${tag})`, join(here, 'baseline-server.ts'), {
      args,
      execArgv: ['--expose-gc'],
    });
    running = { tracked, info: await waitForReady(tracked, 30_000), pid: tracked.process.pid ?? 0 };
  } else {
    const launch = oursServerLaunch(node.config);
    const tracked = children.start(`our chat server (${tag})`, launch.script, {
      args: launch.args,
      env: { ...process.env, ...launch.env },
      execArgv: ['--expose-gc'],
    });
    running = { tracked, info: await waitForReady(tracked, 60_000), pid: tracked.process.pid ?? 0 };
  }
  // Let startup work (JIT, migrations, first GC) settle so the idle RSS reading is an idle one.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  return running;
}

/** Starts a setup's nodes one after the other (so migrations never race), stopping them all if one fails. */
async function startSetup(
  setup: Setup,
  options: Options,
  purpose: 'fanout' | 'durable',
  tag: string,
): Promise<RunningServer[]> {
  const servers: RunningServer[] = [];
  try {
    for (const [index, node] of setup.nodes.entries()) {
      const nodeTag = setup.nodes.length > 1 ? `${tag}, node ${index + 1}` : tag;
      servers.push(await startServer(node, options, purpose, nodeTag));
    }
    return servers;
  } catch (error) {
    for (const server of servers) await children.stop(server.tracked);
    throw error;
  }
}

/**
 * Every setup up at once with its own generator and N watchers; the rate steps alternate between them, so noise
 * from other processes on the box lands on all sides alike.
 */
export async function runFanout(
  setups: Setup[],
  n: number,
  options: Options,
  plan: { rates?: number[]; profilePrefix?: string } = {},
): Promise<FanoutResult[]> {
  console.error(`▶ fan-out: ${setups.map((setup) => setup.name).join(' and ')}, N = ${n}`);
  const rates = plan.rates ?? ratesFor(options, n);
  const sides: {
    name: string;
    servers: RunningServer[];
    generator: Tracked;
    link: GeneratorLink;
  }[] = [];
  const stepBudget =
    (1 + options.busyRetries) * (options.stepSeconds + options.drainSeconds + 70) * 1000;
  const started: RunningServer[] = [];
  try {
    for (const setup of setups) {
      const servers = await startSetup(setup, options, 'fanout', `${setup.name}, fanout-${n}`);
      started.push(...servers);
      const [first] = servers;
      if (!first) throw new Error(`${setup.name} has no server node`);
      const generator = children.start(
        `fan-out generator (${setup.name}, N=${n})`,
        join(here, 'fanout-generator.ts'),
        {
          execArgv: ['--max-old-space-size=4096'],
        },
      );
      const link = new GeneratorLink(generator, {
        servers: servers.map((server) => server.tracked),
        profileDir: options.profileDir,
        profilePrefix: plan.profilePrefix ?? `fanout-${n}`,
      });
      sides.push({ name: setup.name, servers, generator, link });
      const config: FanoutConfig = {
        target: {
          kind: setup.kind,
          name: setup.name,
          server: first.info,
          serverPid: first.pid,
          nodes: servers.map((server) => ({ server: server.info, pid: server.pid })),
          meterBackends: setup.meterBackends,
          createChannel: setup.kind === 'ours',
          addMembers: setup.kind === 'ours' && options.addMembers,
        },
        n,
        rates,
        stepSeconds: options.stepSeconds,
        drainSeconds: options.drainSeconds,
        busyRetries: options.busyRetries,
        connectInFlight: options.connectInFlight,
        channelType: options.channelType,
        channelId: 'fanout',
      };
      await link.request({ type: 'run', config }, 'prepared', 600_000);
    }
    const stopped = new Set<string>();
    for (const rate of rates) {
      for (const side of sides) {
        if (stopped.has(side.name)) continue;
        const { result } = await side.link.request({ type: 'step', rate }, 'step-done', stepBudget);
        if (stopReason(result as StepResult, options.drainSeconds)) stopped.add(side.name);
      }
    }
    const results: FanoutResult[] = [];
    for (const side of sides) {
      await side.link.stopProfile();
      results.push(
        (await side.link.request({ type: 'finish' }, 'result', 60_000)).result as FanoutResult,
      );
    }
    return results;
  } finally {
    for (const side of sides) {
      await side.link.stopProfile();
      await children.stop(side.generator);
    }
    for (const server of started) await children.stop(server.tracked);
  }
}

/** One round of the reconnect storm: each setup's connect-and-watch result, and which setup went first. */
export interface StormRound {
  round: number;
  first: string;
  results: FanoutResult[];
}

/**
 * The reconnect storm alone, `options.stormRounds` times: every round starts each setup afresh (a restart's cold
 * code and empty caches), connects and watches N clients, and stops it. The setups take turns going first, so a
 * stretch where the box runs slow lands on every side alike; the report takes the median of the rounds' ratios.
 */
export async function runStorm(
  setups: Setup[],
  n: number,
  options: Options,
): Promise<StormRound[]> {
  const rounds: StormRound[] = [];
  for (let round = 1; round <= options.stormRounds; round += 1) {
    const order = round % 2 === 1 ? setups : [...setups].reverse();
    console.error(`▶ reconnect storm, round ${round} of ${options.stormRounds}`);
    const results: FanoutResult[] = [];
    for (const setup of order) {
      const [result] = await runFanout([setup], n, options, {
        rates: [],
        profilePrefix: `storm-${n}-round-${round}-${setup.name}`,
      });
      if (result) results.push(result);
    }
    rounds.push({ round, first: order[0]?.name ?? '', results });
  }
  return rounds;
}

/** The durable generator against a setup's first node. */
export async function runDurable(setup: Setup, options: Options): Promise<DurableResult> {
  console.error(`▶ durable sends: ${setup.name}`);
  const [node] = setup.nodes;
  if (!node) throw new Error(`${setup.name} has no server node`);
  const server = await startServer(node, options, 'durable', `${setup.name}, durable`);
  const generator = children.start(
    `durable generator (${setup.name})`,
    join(here, 'durable-generator.ts'),
    {},
  );
  const config: DurableConfig = {
    label: setup.name,
    server: server.info,
    serverPid: server.pid,
    seconds: options.durableSeconds,
    inFlight: options.durableInFlight,
    channels: options.durableChannels,
    channelType: 'messaging',
    createChannels: setup.kind === 'ours',
    meterBackends: setup.meterBackends,
  };
  const link = new GeneratorLink(generator, {
    servers: [server.tracked],
    profileDir: options.profileDir,
    profilePrefix: 'durable',
  });
  try {
    const reply = await link.request(
      { type: 'run', config },
      'result',
      180_000 + options.durableSeconds * 1000,
    );
    return reply.result as DurableResult;
  } finally {
    await link.stopProfile();
    await children.stop(generator);
    await children.stop(server.tracked);
  }
}

export interface BenchRun {
  /** Runs one phase; a failure is recorded in `failures` and the run goes on with the next phase. */
  phase(name: string, run: () => Promise<void>): Promise<void>;
  readonly failures: string[];
  /** True once --max-seconds passed: figures may be printed but must not be written. */
  readonly deadlinePassed: boolean;
  /** Called once at exit, after every child is killed (e.g. to drop a database the run created). */
  onExit(cleanup: () => Promise<void>): void;
}

/** Runs `body` under the hard deadline and the signal handlers, then stops every child and exits. */
export function runBench(options: Options, body: (run: BenchRun) => Promise<void>): void {
  children.priority = options.nice;
  const cleanups: (() => Promise<void>)[] = [];
  let deadlinePassed = false;
  const failures: string[] = [];
  let exiting = false;
  // Past the deadline every child is killed: the phase under way fails, no further phase starts, and the figures
  // measured so far are printed (but not written, so a cut-short run never replaces a complete one).
  const hardStop = setTimeout(() => {
    deadlinePassed = true;
    console.error(`✖ the run passed --max-seconds=${options.maxSeconds}; stopping every child`);
    children.killAll();
  }, options.maxSeconds * 1000);
  hardStop.unref();
  const run: BenchRun = {
    failures,
    get deadlinePassed() {
      return deadlinePassed;
    },
    async phase(name, work) {
      if (deadlinePassed || exiting) {
        failures.push(
          `${name}: not run (${exiting ? 'stopping' : `--max-seconds=${options.maxSeconds} passed`})`,
        );
        return;
      }
      try {
        await work();
      } catch (error) {
        failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        console.error(`✖ ${failures.at(-1)}`);
      }
    },
    onExit(cleanup) {
      cleanups.push(cleanup);
    },
  };
  const shutdown = (code: number): void => {
    if (exiting) return;
    exiting = true;
    children.killAll();
    rmSync(workDir, { recursive: true, force: true });
    // Bounded: a cleanup that hangs (an unreachable database) must not keep the benchmark alive.
    const force = setTimeout(() => process.exit(code), 15_000);
    force.unref();
    void Promise.allSettled(cleanups.map((cleanup) => cleanup())).then(() => process.exit(code));
  };
  process.on('SIGINT', () => shutdown(130));
  process.on('SIGTERM', () => shutdown(143));
  body(run).then(
    () => shutdown(failures.length > 0 ? 1 : 0),
    (error: unknown) => {
      console.error(error);
      shutdown(1);
    },
  );
}
