// bench/chat-fanout: fan-out and durable-send benchmark of our chat server against a bare `ws` baseline.
// Every server and load generator runs in its own child process; this file only orchestrates and reports.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Children, runGenerator, waitForReady, type Tracked } from './children.ts';
import type { ServerInfo } from './child-protocol.ts';
import { waitForQuietBox } from './proc-stats.ts';
import { parseOptions, ratesFor, type Options, type ServerKind } from './options.ts';
import { oursAvailability, oursServerLaunch } from './ours.ts';
import { printProfileSummaries } from './profile-summary.ts';
import { renderReport, updateBenchmarksFile, type RunReport } from './report.ts';
import type { DurableConfig, DurableResult, FanoutConfig, FanoutResult } from './results.ts';

const here = new URL('.', import.meta.url).pathname;
const children = new Children();
const workDir = mkdtempSync(join(tmpdir(), 'chat-fanout-'));

interface RunningServer {
  tracked: Tracked;
  info: ServerInfo;
  pid: number;
}

async function startServer(kind: ServerKind, options: Options, purpose: 'fanout' | 'durable', tag: string) {
  if (options.quietWaitSeconds > 0) {
    const busy = await waitForQuietBox(options.quietWaitSeconds * 1000);
    if (busy >= 25) console.error(`  ! other processes still use ${busy.toFixed(0)} % of a core; measuring anyway`);
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

async function runFanout(kind: ServerKind, n: number, options: Options): Promise<FanoutResult> {
  const tag = `fanout-${n}`;
  console.error(`▶ fan-out: ${kind}, N = ${n}`);
  const server = await startServer(kind, options, 'fanout', tag);
  const generator = children.start(`fan-out generator (${kind}, ${n})`, join(here, 'fanout-generator.ts'), {
    execArgv: ['--max-old-space-size=4096'],
  });
  const rates = ratesFor(options, n);
  const config: FanoutConfig = {
    label: `${kind} N=${n}`,
    server: server.info,
    serverPid: server.pid,
    n,
    rates,
    stepSeconds: options.stepSeconds,
    drainSeconds: options.drainSeconds,
    busyRetries: options.busyRetries,
    connectInFlight: options.connectInFlight,
    channelType: options.channelType,
    channelId: 'fanout',
    createChannel: kind === 'ours',
    addMembers: kind === 'ours' && options.addMembers,
  };
  const attempts = 1 + options.busyRetries;
  const budget = 300_000 + rates.length * attempts * (options.stepSeconds + options.drainSeconds + 40) * 1000;
  try {
    return await runGenerator<FanoutResult>(generator, config, budget, {
      tracked: server.tracked,
      profileDir: options.profileDir,
      profilePrefix: `${kind}-fanout-${n}`,
    });
  } finally {
    await children.stop(generator);
    await children.stop(server.tracked);
  }
}

async function runDurable(kind: ServerKind, options: Options): Promise<DurableResult> {
  console.error(`▶ durable sends: ${kind}`);
  const server = await startServer(kind, options, 'durable', 'durable');
  const generator = children.start(`durable generator (${kind})`, join(here, 'durable-generator.ts'), {});
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
  try {
    return await runGenerator<DurableResult>(generator, config, 180_000 + options.durableSeconds * 1000, {
      tracked: server.tracked,
      profileDir: options.profileDir,
      profilePrefix: `${kind}-durable`,
    });
  } finally {
    await children.stop(generator);
    await children.stop(server.tracked);
  }
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });
  const hardStop = setTimeout(() => {
    console.error(`✖ the run passed --max-seconds=${options.maxSeconds}; stopping every child`);
    shutdown(2);
  }, options.maxSeconds * 1000);
  hardStop.unref();

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
  if (report.oursUnavailable) console.error(`! our chat server is not runnable: ${report.oursUnavailable}`);

  if (options.fanout) {
    for (const n of options.ns) {
      for (const kind of servers) {
        try {
          report.fanout.push(await runFanout(kind, n, options));
        } catch (error) {
          report.failures.push(`fan-out ${kind} N=${n}: ${error instanceof Error ? error.message : String(error)}`);
          console.error(`✖ ${report.failures.at(-1)}`);
        }
      }
    }
  }
  if (options.durable) {
    for (const kind of servers) {
      try {
        report.durable.push(await runDurable(kind, options));
      } catch (error) {
        report.failures.push(`durable ${kind}: ${error instanceof Error ? error.message : String(error)}`);
        console.error(`✖ ${report.failures.at(-1)}`);
      }
    }
  }

  if (options.profileDir) printProfileSummaries(options.profileDir);
  const rendered = renderReport(report);
  console.info(`${rendered.fanout}\n${rendered.durable}`);
  if (options.write) {
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
