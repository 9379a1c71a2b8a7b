// bench/chat-fanout: fan-out and durable-send benchmark of our chat server against a bare `ws` baseline.
// Every server and load generator runs in its own child process; this file only orchestrates and reports.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runBench, runDurable, runFanout, runStorm, type Setup } from './orchestrator.ts';
import { parseOptions } from './options.ts';
import { oursAvailability } from './ours.ts';
import { printProfileSummaries } from './profile-summary.ts';
import { renderReport, updateBenchmarksFile, type RunReport } from './report.ts';

const here = new URL('.', import.meta.url).pathname;
const options = parseOptions(process.argv.slice(2));
if (options.profileDir) mkdirSync(options.profileDir, { recursive: true });

runBench(options, async (run) => {
  const unavailable = oursAvailability();
  const servers = options.servers.filter((kind) => kind !== 'ours' || unavailable === null);
  const setups: Setup[] = servers.map((kind) => ({
    name: kind,
    kind,
    nodes: [{ kind }],
    meterBackends: false,
  }));
  const report: RunReport = {
    options,
    startedAt: new Date(),
    oursUnavailable: options.servers.includes('ours') ? unavailable : null,
    fanout: [],
    storms: [],
    durable: [],
    failures: run.failures,
  };
  if (report.oursUnavailable)
    console.error(`! our chat server is not runnable: ${report.oursUnavailable}`);

  if (options.fanout) {
    for (const n of options.ns) {
      await run.phase(
        `fan-out N=${n}`,
        async () => void report.fanout.push(...(await runFanout(setups, n, options))),
      );
    }
  }
  const stormN = Math.max(...options.ns);
  if (options.stormRounds > 0) {
    await run.phase(`reconnect storm N=${stormN}`, async () => {
      report.storms.push({ n: stormN, rounds: await runStorm(setups, stormN, options) });
    });
  }
  if (options.durable) {
    for (const setup of setups) {
      await run.phase(
        `durable ${setup.name}`,
        async () => void report.durable.push(await runDurable(setup, options)),
      );
    }
  }

  if (options.profileDir) printProfileSummaries(options.profileDir);
  const rendered = renderReport(report);
  console.info(`${rendered.fanout}\n${rendered.durable}`);
  if (options.write && !run.deadlinePassed) {
    const path = join(here, '..', '..', 'BENCHMARKS.md');
    updateBenchmarksFile(path, rendered);
    console.error(`✔ wrote the "Chat fan-out" and "Durable sends" sections of ${path}`);
  }
});
