// bench/chat-fanout: fan-out and durable-send benchmark of our chat server against a bare `ws` baseline.
// Every server and load generator runs in its own child process; this file only orchestrates and reports.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Children, GeneratorLink, waitForReady, type Tracked } from './children.ts';
import type { ServerInfo } from './child-protocol.ts';
import { waitForQuietBox } from './proc-stats.ts';
import { parseOptions, ratesFor, type Options, type ServerKind } from './options.ts';
import { oursAvailability, oursServerLaunch } from './ours.ts';
import { printProfileSummaries } from './profile-summary.ts';
import { renderReport, updateBenchmarksFile, type RunReport } from './report.ts';
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

interface RunningServer {
  tracked: Tracked;
  info: ServerInfo;
  pid: number;
}

async function startServer(
  kind: ServerKind,
  options: Options,
  purpose: 'fanout' | 'durable',
  tag: string,
) {
  if (options.quietWaitSeconds > 0) {
    const busy = await waitForQuietBox(options.quietWaitSeconds * 1000);
    if (busy >= 25)
      console.error(
        `  ! other processes still use ${busy.toFixed(0)} % of a core; measuring anyway`,
      );
  }
  let running: RunningServer;
  if (kind === 'baseline') {
    const args = purpose === 'durable' ? ['--sqlite', join(workDir, `baseline-${tag}.sqlite`)] : [];
    const tracked = children.start(`baseline server (${tag})`, join(here, 'baseline-server.ts'), {
      args,
      execArgv: ['--expose-gc'],
    });
    running = { tracked, info: await waitForReady(tracked, 30_000), pid: tracked.process.pid ?? 0 };
  } else {
    const launch = oursServerLaunch();
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

/**
 * Every server up at once with its own generator and N watchers; the rate steps alternate between them, so noise
 * from other sessions on the box lands on both sides alike.
 */
async function runFanout(
  kinds: ServerKind[],
  n: number,
  options: Options,
): Promise<FanoutResult[]> {
  console.error(`▶ fan-out: ${kinds.join(' and ')}, N = ${n}`);
  const rates = ratesFor(options, n);
  const sides: {
    kind: ServerKind;
    server: RunningServer;
    generator: Tracked;
    link: GeneratorLink;
  }[] = [];
  const stepBudget =
    (1 + options.busyRetries) * (options.stepSeconds + options.drainSeconds + 70) * 1000;
  try {
    for (const kind of kinds) {
      const server = await startServer(kind, options, 'fanout', `fanout-${n}`);
      const generator = children.start(
        `fan-out generator (${kind}, N=${n})`,
        join(here, 'fanout-generator.ts'),
        {
          execArgv: ['--max-old-space-size=4096'],
        },
      );
      const link = new GeneratorLink(generator, {
        server: server.tracked,
        profileDir: options.profileDir,
        profilePrefix: `fanout-${n}`,
      });
      sides.push({ kind, server, generator, link });
      const config: FanoutConfig = {
        target: {
          kind,
          server: server.info,
          serverPid: server.pid,
          createChannel: kind === 'ours',
          addMembers: kind === 'ours' && options.addMembers,
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
    const stopped = new Set<ServerKind>();
    for (const rate of rates) {
      for (const side of sides) {
        if (stopped.has(side.kind)) continue;
        const { result } = await side.link.request({ type: 'step', rate }, 'step-done', stepBudget);
        if (stopReason(result as StepResult, options.drainSeconds)) stopped.add(side.kind);
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
      await children.stop(side.server.tracked);
    }
  }
}

async function runDurable(kind: ServerKind, options: Options): Promise<DurableResult> {
  console.error(`▶ durable sends: ${kind}`);
  const server = await startServer(kind, options, 'durable', 'durable');
  const generator = children.start(
    `durable generator (${kind})`,
    join(here, 'durable-generator.ts'),
    {},
  );
  const config: DurableConfig = {
    label: kind,
    server: server.info,
    serverPid: server.pid,
    seconds: options.durableSeconds,
    inFlight: options.durableInFlight,
    channels: options.durableChannels,
    channelType: 'messaging',
    createChannels: kind === 'ours',
  };
  const link = new GeneratorLink(generator, {
    server: server.tracked,
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

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
  children.priority = options.nice;
  // Past the deadline every child is killed: the phase under way fails, no further phase starts, and the figures
  // measured so far are printed (but not written, so a cut-short run never replaces a complete one).
  let deadlinePassed = false;
  const hardStop = setTimeout(() => {
    deadlinePassed = true;
    console.error(`✖ the run passed --max-seconds=${options.maxSeconds}; stopping every child`);
    children.killAll();
  }, options.maxSeconds * 1000);
  hardStop.unref();
  const phase = async (name: string, run: () => Promise<void>): Promise<void> => {
    if (deadlinePassed) {
      report.failures.push(`${name}: not run (--max-seconds=${options.maxSeconds} passed)`);
      return;
    }
    try {
      await run();
    } catch (error) {
      report.failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
      console.error(`✖ ${report.failures.at(-1)}`);
    }
  };

  const unavailable = oursAvailability();
  const servers = options.servers.filter((kind) => kind !== 'ours' || unavailable === null);
  const report: RunReport = {
    options,
    startedAt: new Date(),
    oursUnavailable: options.servers.includes('ours') ? unavailable : null,
    fanout: [],
    durable: [],
    failures: [],
  };
  if (report.oursUnavailable)
    console.error(`! our chat server is not runnable: ${report.oursUnavailable}`);

  if (options.fanout) {
    for (const n of options.ns) {
      await phase(
        `fan-out N=${n}`,
        async () => void report.fanout.push(...(await runFanout(servers, n, options))),
      );
    }
  }
  if (options.durable) {
    for (const kind of servers) {
      await phase(
        `durable ${kind}`,
        async () => void report.durable.push(await runDurable(kind, options)),
      );
    }
  }

  if (options.profileDir) printProfileSummaries(options.profileDir);
  const rendered = renderReport(report);
  console.info(`${rendered.fanout}\n${rendered.durable}`);
  if (options.write && !deadlinePassed) {
    const path = join(here, '..', '..', 'BENCHMARKS.md');
    updateBenchmarksFile(path, rendered);
    console.error(`✔ wrote the "Chat fan-out" and "Durable sends" sections of ${path}`);
  }
  shutdown(report.failures.length > 0 ? 1 : 0);
}

function shutdown(code: number): void {
  children.killAll();
  rmSync(workDir, { recursive: true, force: true });
  process.exit(code);
}

process.on('SIGINT', () => shutdown(130));
process.on('SIGTERM', () => shutdown(143));
main().catch((error: unknown) => {
  console.error(error);
  shutdown(1);
});
