import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import type { Options } from './options.ts';
import {
  delivered,
  durableCells,
  fmtInt,
  fmtKb,
  fmtMb,
  fmtCpuMs,
  fmtMs,
  fmtRatio,
  replaceSection,
  row,
} from './report.ts';
import {
  BUSY_OTHER_PCT,
  type DurableResult,
  type FanoutResult,
  type StepResult,
} from './results.ts';

export const CLUSTER_HEADING =
  '## Cluster: two nodes against one, PostgreSQL against SQLite (issue 16)';

/** The setup every fan-out ratio divides by, and the one every durable ratio divides by. */
const FANOUT_BASE = 'pg';
const DURABLE_BASE = 'sqlite';

const FANOUT_NAMES: Record<string, string> = {
  sqlite: 'one node, SQLite, no Redis',
  pg: 'one node, PostgreSQL + Redis',
  'pg-2nodes': 'two nodes, PostgreSQL + Redis',
};
const DURABLE_NAMES: Record<string, string> = {
  sqlite: 'SQLite',
  pg: 'PostgreSQL',
  'pg-redis': 'PostgreSQL + Redis pub/sub',
};

export interface ClusterReport {
  options: Options;
  startedAt: Date;
  /** One-minute load averages sampled through the run. */
  loadAverages: number[];
  fanout: FanoutResult[];
  durable: DurableResult[];
  failures: string[];
}

export function renderClusterReport(report: ClusterReport): string {
  const { options } = report;
  const loads = report.loadAverages;
  const loadText = loads.length
    ? `load average (1 min) ${loads[0]?.toFixed(1)} at the start, ${Math.min(...loads).toFixed(1)}–` +
      `${Math.max(...loads).toFixed(1)} during the run`
    : 'load average not sampled';
  const lines = [
    CLUSTER_HEADING,
    '',
    `Reproduce: \`${options.command}\` (measured ${report.startedAt.toISOString().slice(0, 10)}, Node ` +
      `${process.version}, ${loadText}; 2 vCPU shared by the chat nodes, the load generator, PostgreSQL and Redis).`,
    '',
    'Rewritten by `bench/chat-fanout/cluster.ts`. Each PostgreSQL setup gets a fresh database on the same server and',
    'its own Redis key prefix; nodes of one setup share the database, the Redis and the app credentials. Fan-out:',
    'the receivers and sender of the "Chat fan-out" section; in the two-node setup receiver i connects to node',
    '1 + (i mod 2) and watches through it, and the sender posts through node 1, so half the deliveries cross Redis.',
    'Every setup is connected and watching at once and the rate steps alternate between them. Ratios divide by one',
    'node on PostgreSQL + Redis. CPU is % of one core from `/proc`: each chat node, the generator, every',
    '`postgres` and `redis-server` process (other test runs share these, so an upper bound), and all the rest.',
    '',
  ];
  if (report.failures.length)
    lines.push(...report.failures.map((failure) => `> Failed: ${failure.split('\n')[0]}`), '');

  for (const n of [...new Set(report.fanout.map((result) => result.n))]) {
    const results = report.fanout.filter((result) => result.n === n);
    lines.push(`### Fan-out, N = ${fmtInt(n)}`, '');
    lines.push(
      '| msg/s | setup | deliveries/s | ratio | p50 / p99 ms | p99 ratio | delivered | missed | CPU % nodes / generator / PostgreSQL + Redis / other |',
      '|---|---|---|---|---|---|---|---|---|',
    );
    const base = results.find((result) => setupOf(result.label) === FANOUT_BASE);
    const rates = [
      ...new Set(results.flatMap((result) => result.steps.map((step) => step.rate))),
    ].sort((a, b) => a - b);
    for (const rate of rates) {
      const baseStep = base?.steps.find((step) => step.rate === rate);
      for (const result of results) {
        const step = result.steps.find((candidate) => candidate.rate === rate);
        const isBase = result === base;
        if (!step) {
          const cells = [String(rate), setupName(result.label), 'not run (ramp stopped)'];
          lines.push(row([...cells, ...Array<string>(6).fill('–')]));
          continue;
        }
        lines.push(
          row([
            String(rate),
            setupName(result.label),
            fmtInt(step.deliveriesPerSecond),
            isBase || !baseStep
              ? '–'
              : fmtRatio(step.deliveriesPerSecond / baseStep.deliveriesPerSecond),
            `${fmtMs(step.p50)} / ${fmtMs(step.p99)}`,
            isBase || !baseStep ? '–' : fmtRatio(step.p99 / baseStep.p99),
            delivered(step),
            fmtInt(Math.max(0, step.expected - step.delivered)),
            cpu(step),
          ]),
        );
      }
    }
    lines.push(
      '',
      '| setup | connected / watching | connects/s | watches/s | server CPU per connect / per watch | RSS of all nodes idle → watching | peak RSS (sum) | dropped sockets |',
    );
    lines.push('|---|---|---|---|---|---|---|---|');
    for (const result of results) {
      lines.push(
        row([
          setupName(result.label),
          `${fmtInt(result.connected)} / ${fmtInt(result.watching)}${result.connectErrors.length ? ` (${result.connectErrors.join('; ')})` : ''}`,
          fmtInt(result.connectsPerSecond),
          fmtInt(result.watchesPerSecond),
          `${fmtCpuMs(result.cpuMsPerConnect)} / ${fmtCpuMs(result.cpuMsPerWatch)} ms`,
          `${fmtMb(result.rssBeforeBytes)} → ${fmtMb(result.rssAfterBytes)} MB (${fmtKb(result.rssPerWatcherBytes)} KB per watcher)`,
          `${fmtMb(result.peakRssBytes)} MB`,
          result.disconnects
            ? `${fmtInt(result.disconnects)} (${result.disconnectReasons.join('; ')})`
            : '0',
        ]),
      );
    }
    const stops = results.filter((result) => result.stoppedEarly);
    if (stops.length)
      lines.push(
        '',
        ...stops.map(
          (result) => `- ${setupName(result.label)}: ramp stopped, ${result.stoppedEarly}.`,
        ),
      );
    const sendErrors = results.flatMap((result) =>
      result.steps.flatMap((step) =>
        step.sendErrors.map((error) => `- ${setupName(result.label)} ${step.rate}/s: ${error}`),
      ),
    );
    if (sendErrors.length) lines.push('', 'Send errors:', ...sendErrors);
    lines.push('');
  }

  if (report.durable.length) {
    const base = report.durable.find((result) => result.label === DURABLE_BASE);
    lines.push('### Durable sends', '');
    lines.push(
      `${options.durableInFlight} senders on ${options.durableChannels} \`messaging\` channels for ${options.durableSeconds} s, then every`,
      'acknowledged id read back, as in the "Durable sends" section; one node per setup. Ratio: ÷ SQLite.',
      '',
      '| setup | acknowledged | acknowledged/s | ratio | p50 / p99 ms | failed sends | lost | CPU % node / generator / PostgreSQL + Redis / other |',
      '|---|---|---|---|---|---|---|---|',
    );
    for (const result of report.durable) {
      lines.push(
        row([
          setupName(result.label, DURABLE_NAMES),
          durableCells(result).acknowledged,
          fmtInt(result.ackedPerSecond),
          base && result !== base ? fmtRatio(result.ackedPerSecond / base.ackedPerSecond) : '–',
          `${fmtMs(result.p50)} / ${fmtMs(result.p99)}`,
          durableCells(result).failed,
          durableCells(result).lost,
          `${pct(result.serverCpu)} / ${pct(result.generatorCpu)} / ${result.backendCpu === null ? '–' : pct(result.backendCpu)} / ${pct(result.otherCpu)}${busy(result.otherCpu)}`,
        ]),
      );
    }
    lines.push('');
  }
  if (
    report.fanout.some((result) => result.steps.some((step) => step.otherCpu > BUSY_OTHER_PCT)) ||
    report.durable.some((result) => result.otherCpu > BUSY_OTHER_PCT)
  )
    lines.push(
      `† processes outside the benchmark used more than ${BUSY_OTHER_PCT} % of a core in the least disturbed attempt.`,
      '',
    );
  return `${lines.join('\n').replace(/\n*$/, '')}\n`;
}

/** Replaces the cluster section of BENCHMARKS.md (appended if absent); every other section stays as it is. */
export function updateClusterSection(path: string, section: string): void {
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  writeFileSync(path, replaceSection(text, CLUSTER_HEADING, section));
}

function setupOf(label: string): string {
  return label.split(' ')[0] ?? label;
}

function setupName(label: string, names = FANOUT_NAMES): string {
  const setup = setupOf(label);
  return names[setup] ?? setup;
}

function cpu(step: StepResult): string {
  const nodes = step.nodeCpu.map(pct).join(' + ');
  const backend = step.backendCpu === null ? '–' : pct(step.backendCpu);
  const repeated = step.attempts > 1 ? ` (quietest of ${step.attempts} runs)` : '';
  return `${nodes} / ${pct(step.generatorCpu)} / ${backend} / ${pct(step.otherCpu)}${busy(step.otherCpu)}${repeated}`;
}

function pct(value: number): string {
  return value.toFixed(0);
}

function busy(otherCpu: number): string {
  return otherCpu > BUSY_OTHER_PCT ? ' †' : '';
}
