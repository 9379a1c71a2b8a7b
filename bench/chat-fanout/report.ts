import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { median } from '../web/report.ts';
import type { Options } from './options.ts';
import type { StormRound } from './orchestrator.ts';
import {
  BUSY_OTHER_PCT,
  type DurableResult,
  type FanoutResult,
  type StepResult,
} from './results.ts';

export interface RunReport {
  options: Options;
  startedAt: Date;
  oursUnavailable: string | null;
  fanout: FanoutResult[];
  storms: StormRun[];
  durable: DurableResult[];
  failures: string[];
}

export interface RenderedReport {
  fanout: string;
  durable: string;
}

const FANOUT_HEADING = '## Chat fan-out';
const DURABLE_HEADING = '## Durable sends';
const SUSTAINED_P99_MS = 500;
const DURABLE_GOAL_PER_SECOND = 3000;

export function renderReport(report: RunReport): RenderedReport {
  return { fanout: renderFanout(report), durable: renderDurable(report) };
}

function renderFanout(report: RunReport): string {
  const { options } = report;
  const lines = [
    FANOUT_HEADING,
    '',
    `Reproduce: \`${options.command}\` (${runContext(report)}).`,
    '',
    'Server under test and load generator are separate processes on the same 2 cores (docs/benchmark-method.md: each',
    'figure is one server process plus one core of client work). Receivers are raw websocket clients speaking the',
    'stream-chat protocol: `/connect` with a JWT, first frame `health.check` with `connection_id`, then',
    `\`POST /channels/${options.channelType}/fanout/query\` with \`watch: true\`, pings every 25 s. One sender posts`,
    `\`POST /channels/{type}/{id}/message\` at fixed rates for ${options.stepSeconds} s per step; latency runs from just`,
    'before the POST to the frame arriving, on one clock. **Baseline**: a bare `ws` server in its own process (same',
    'receivers and sender, `JSON.stringify` once and one `ws.send(buffer)` per socket, Stream-like `message.new`).',
    `"Sustained" = every message delivered and p99 < ${SUSTAINED_P99_MS} ms. Ratios are ours ÷ baseline.`,
    '',
  ];
  lines.push(...notices(report));
  const ns = [...new Set(report.fanout.map((result) => result.n))];
  if (ns.length === 0) {
    lines.push('No fan-out figures in this run.', '', ...report.storms.flatMap(renderStorm));
    return `${lines.join('\n')}\n`;
  }

  lines.push('### Against the goals', '');
  lines.push(
    '| N | metric | bare ws | ours | ratio | goal | met |',
    '|---|---|---|---|---|---|---|',
  );
  for (const n of ns) {
    const baseline = find(report.fanout, 'baseline', n);
    const ours = find(report.fanout, 'ours', n);
    const isGoal = n >= 10_000;
    const bestBase = baseline ? maxSustained(baseline) : null;
    const bestOurs = ours ? maxSustained(ours) : null;
    const deliveryRatio =
      bestBase && bestOurs ? bestOurs.deliveriesPerSecond / bestBase.deliveriesPerSecond : NaN;
    lines.push(
      row([
        fmtInt(n),
        'max sustained deliveries/s',
        bestBase ? `${fmtInt(bestBase.deliveriesPerSecond)} @ ${bestBase.rate}/s` : 'none',
        bestOurs ? `${fmtInt(bestOurs.deliveriesPerSecond)} @ ${bestOurs.rate}/s` : 'none',
        fmtRatio(deliveryRatio),
        isGoal ? '≥ 1× (aim: several ×)' : '–',
        isGoal ? met(deliveryRatio >= 1, deliveryRatio) : '–',
      ]),
    );
    const peakBase = baseline ? peakDelivered(baseline) : null;
    const peakOurs = ours ? peakDelivered(ours) : null;
    lines.push(
      row([
        fmtInt(n),
        'peak deliveries/s with every message delivered (any p99)',
        peakBase
          ? `${fmtInt(peakBase.deliveriesPerSecond)} @ ${peakBase.rate}/s, p99 ${fmtMs(peakBase.p99)} ms`
          : 'none',
        peakOurs
          ? `${fmtInt(peakOurs.deliveriesPerSecond)} @ ${peakOurs.rate}/s, p99 ${fmtMs(peakOurs.p99)} ms`
          : 'none',
        peakBase && peakOurs
          ? fmtRatio(peakOurs.deliveriesPerSecond / peakBase.deliveriesPerSecond)
          : '–',
        '(for information)',
        '–',
      ]),
    );
    const common =
      bestBase && ours ? ours.steps.find((step) => step.rate === bestBase.rate) : undefined;
    const p99Ratio = common && bestBase ? common.p99 / bestBase.p99 : NaN;
    lines.push(
      row([
        fmtInt(n),
        bestBase ? `p99 at ${bestBase.rate} msg/s (baseline's best sustained rate)` : 'p99',
        bestBase ? `${fmtMs(bestBase.p99)} ms` : '–',
        common ? `${fmtMs(common.p99)} ms${common.drained ? '' : ' (not all delivered)'}` : '–',
        fmtRatio(p99Ratio),
        isGoal ? '≤ 1×' : '–',
        isGoal ? met(p99Ratio <= 1 && Boolean(common?.drained), p99Ratio) : '–',
      ]),
    );
    const memoryRatio =
      baseline && ours ? ours.rssPerConnectionBytes / baseline.rssPerConnectionBytes : NaN;
    lines.push(
      row([
        fmtInt(n),
        'RSS per idle connection (after GC)',
        baseline ? `${fmtKb(baseline.rssPerConnectionBytes)} KB` : '–',
        ours ? `${fmtKb(ours.rssPerConnectionBytes)} KB` : '–',
        fmtRatio(memoryRatio),
        isGoal ? '≤ 2×' : '–',
        isGoal ? met(memoryRatio <= 2, memoryRatio) : '–',
      ]),
    );
    const watcherRatio =
      baseline && ours ? ours.rssPerWatcherBytes / baseline.rssPerWatcherBytes : NaN;
    lines.push(
      row([
        fmtInt(n),
        'RSS per connection once all watch the channel (after GC)',
        baseline ? `${fmtKb(baseline.rssPerWatcherBytes)} KB` : '–',
        ours ? `${fmtKb(ours.rssPerWatcherBytes)} KB` : '–',
        fmtRatio(watcherRatio),
        '(for information)',
        '–',
      ]),
    );
  }

  lines.push('', '### Connections and memory', '');
  lines.push(
    '| server | N | connected / watching | connects/s | watches/s | server CPU per connect / per watch | server busy after the last watch | largest watch response | server RSS idle → connected → watching | per idle connection: RSS (heap) | per watching connection: RSS (heap) | `message.new` frame | peak RSS | dropped sockets |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const result of report.fanout) {
    lines.push(
      row([
        serverName(result.label),
        fmtInt(result.n),
        `${fmtInt(result.connected)} / ${fmtInt(result.watching)}${result.connectErrors.length ? ` (${result.connectErrors.join('; ')})` : ''}`,
        fmtInt(result.connectsPerSecond),
        fmtInt(result.watchesPerSecond),
        `${fmtCpuMs(result.cpuMsPerConnect)} / ${fmtCpuMs(result.cpuMsPerWatch)} ms`,
        `${result.settleSeconds.toFixed(1)} s`,
        `${fmtInt(result.watchResponseBytes / 1024)} KB`,
        `${fmtMb(result.rssBeforeBytes)} → ${fmtMb(result.rssConnectedBytes)} → ${fmtMb(result.rssAfterBytes)} MB`,
        `${fmtKb(result.rssPerConnectionBytes)} KB (${fmtKb(result.heapPerConnectionBytes)} KB)`,
        `${fmtKb(result.rssPerWatcherBytes)} KB (${fmtKb(result.heapPerWatcherBytes)} KB)`,
        `${fmtInt(result.frameBytes)} B`,
        `${fmtMb(result.peakRssBytes)} MB`,
        fmtInt(result.disconnects),
      ]),
    );
  }

  for (const storm of report.storms) lines.push('', ...renderStorm(storm));

  lines.push('', '### Fixed send rates', '');
  lines.push(
    '| N | msg/s | deliveries/s bare ws | deliveries/s ours | ratio | p50 / p99 ms bare ws | p50 / p99 ms ours | p99 ratio | delivered bare ws | delivered ours | CPU % server / generator / other: bare ws | … ours |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
  );
  for (const n of ns) {
    const baseline = find(report.fanout, 'baseline', n);
    const ours = find(report.fanout, 'ours', n);
    const rates = [
      ...new Set([...(baseline?.steps ?? []), ...(ours?.steps ?? [])].map((step) => step.rate)),
    ];
    for (const rate of rates.sort((a, b) => a - b)) {
      const base = baseline?.steps.find((step) => step.rate === rate);
      const our = ours?.steps.find((step) => step.rate === rate);
      lines.push(
        row([
          fmtInt(n),
          String(rate),
          base ? fmtInt(base.deliveriesPerSecond) : 'not run',
          our ? fmtInt(our.deliveriesPerSecond) : 'not run',
          base && our ? fmtRatio(our.deliveriesPerSecond / base.deliveriesPerSecond) : '–',
          base ? latency(base) : '–',
          our ? latency(our) : '–',
          base && our ? fmtRatio(our.p99 / base.p99) : '–',
          base ? delivered(base) : '–',
          our ? delivered(our) : '–',
          base ? cpu(base) : '–',
          our ? cpu(our) : '–',
        ]),
      );
    }
  }
  const busySteps = report.fanout.some((result) =>
    result.steps.some((step) => step.otherCpu > BUSY_OTHER_PCT),
  );
  if (busySteps) {
    lines.push(
      '',
      `† processes outside the benchmark used more than ${BUSY_OTHER_PCT} % of a core during that step even in the`,
      `least disturbed of up to ${options.busyRetries + 1} attempts (other sessions share this box); treat its latency`,
      'and throughput as a lower bound.',
    );
  }
  const stops = report.fanout.filter((result) => result.stoppedEarly);
  if (stops.length) {
    lines.push(
      '',
      ...stops.map(
        (result) =>
          `- ${serverName(result.label)} N=${result.n}: ramp stopped, ${result.stoppedEarly}.`,
      ),
    );
  }
  const sendErrors = report.fanout.flatMap((result) =>
    result.steps.flatMap((step) =>
      step.sendErrors.map(
        (error) => `- ${serverName(result.label)} N=${result.n} ${step.rate}/s: ${error}`,
      ),
    ),
  );
  if (sendErrors.length) lines.push('', 'Send errors:', ...sendErrors);
  return `${lines.join('\n')}\n`;
}

export interface StormRun {
  n: number;
  rounds: StormRound[];
}

/** Goals of the reconnect storm, as ratios of ours to bare ws. */
const RATE_GOAL = 0.5;
const MEMORY_GOAL = 2;

interface RoundRatios {
  connects: number;
  watches: number;
  memory: number;
}

function ratios(baseline?: FanoutResult, ours?: FanoutResult): RoundRatios | null {
  if (!baseline || !ours) return null;
  return {
    connects: ours.connectsPerSecond / baseline.connectsPerSecond,
    watches: ours.watchesPerSecond / baseline.watchesPerSecond,
    memory: ours.rssPerWatcherBytes / baseline.rssPerWatcherBytes,
  };
}

function renderStorm(storm: StormRun): string[] {
  const { n, rounds } = storm;
  const lines = [
    `### Reconnect storm: ${rounds.length} rounds at N = ${fmtInt(n)}`,
    '',
    'Each round starts both servers afresh, as after a restart (cold code, empty caches), connects and watches N',
    'clients as above, and stops them; the servers take turns going first. A round compares the two servers within',
    'seconds of each other, and the median of the rounds is what the goals are judged on, so one stretch of a slow',
    'box does not decide them.',
    '',
    '| round | first | connects/s bare ws / ours | ratio | watches/s bare ws / ours | ratio | server CPU per connect / per watch: bare ws | … ours | RSS per watching connection bare ws / ours | ratio |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  const all: RoundRatios[] = [];
  for (const round of rounds) {
    const baseline = find(round.results, 'baseline', n);
    const ours = find(round.results, 'ours', n);
    const ratio = ratios(baseline, ours);
    if (ratio) all.push(ratio);
    lines.push(
      row([
        String(round.round),
        round.first === 'baseline' ? 'bare ws' : 'ours',
        `${fmtInt(baseline?.connectsPerSecond ?? NaN)} / ${fmtInt(ours?.connectsPerSecond ?? NaN)}`,
        fmtRatio(ratio?.connects ?? NaN),
        `${fmtInt(baseline?.watchesPerSecond ?? NaN)} / ${fmtInt(ours?.watchesPerSecond ?? NaN)}`,
        fmtRatio(ratio?.watches ?? NaN),
        baseline
          ? `${fmtCpuMs(baseline.cpuMsPerConnect)} / ${fmtCpuMs(baseline.cpuMsPerWatch)} ms`
          : '–',
        ours ? `${fmtCpuMs(ours.cpuMsPerConnect)} / ${fmtCpuMs(ours.cpuMsPerWatch)} ms` : '–',
        `${fmtKb(baseline?.rssPerWatcherBytes ?? NaN)} / ${fmtKb(ours?.rssPerWatcherBytes ?? NaN)} KB`,
        fmtRatio(ratio?.memory ?? NaN),
      ]),
    );
  }
  if (all.length === 0) return [...lines, '', 'No round measured both servers.', ''];
  const goals: {
    metric: string;
    values: number[];
    goal: string;
    ok: (value: number) => boolean;
  }[] = [
    {
      metric: 'connects/s',
      values: all.map((ratio) => ratio.connects),
      goal: `≥ ${RATE_GOAL}×`,
      ok: (value) => value >= RATE_GOAL,
    },
    {
      metric: 'watches/s',
      values: all.map((ratio) => ratio.watches),
      goal: `≥ ${RATE_GOAL}×`,
      ok: (value) => value >= RATE_GOAL,
    },
    {
      metric: 'RSS per watching connection (after GC)',
      values: all.map((ratio) => ratio.memory),
      goal: `≤ ${MEMORY_GOAL}×`,
      ok: (value) => value <= MEMORY_GOAL,
    },
  ];
  lines.push(
    '',
    '| metric, ours ÷ bare ws | median of the rounds | lowest – highest | rounds at the goal | goal | met (median) |',
    '|---|---|---|---|---|---|',
  );
  for (const { metric, values, goal, ok } of goals) {
    const middle = median(values);
    lines.push(
      row([
        metric,
        // Three decimals: a median of 0.496× must not read as 0.50× beside a "no".
        Number.isFinite(middle) ? `${middle.toFixed(3)}×` : '–',
        `${fmtRatio(Math.min(...values))} – ${fmtRatio(Math.max(...values))}`,
        `${values.filter(ok).length} of ${values.length}`,
        goal,
        ok(middle) ? 'yes' : '**no**',
      ]),
    );
  }
  return [...lines, ''];
}

function renderDurable(report: RunReport): string {
  const { options } = report;
  const lines = [
    DURABLE_HEADING,
    '',
    `Reproduce: \`${options.command}\` (${runContext(report)}).`,
    '',
    `${options.durableInFlight} senders (distinct users, ${options.durableChannels} \`messaging\` channels) each keep one`,
    `\`POST /channels/messaging/{id}/message\` in flight for ${options.durableSeconds} s against a fresh on-disk SQLite`,
    'database; a send counts when HTTP 200/201 comes back. Afterwards every acknowledged id is looked up again: by',
    'paging each channel with `messages.id_lt` (limit 300), then `GET /messages/{id}` for any id the pages missed.',
    '**Baseline**: `node:http` + better-sqlite3, one autocommit `INSERT` per request (WAL, `synchronous=NORMAL`),',
    'no auth, no fan-out: the floor for "HTTP request + durable row" in one Node process on this box.',
    '',
  ];
  lines.push(...notices(report));
  if (report.durable.length === 0)
    return `${lines.join('\n')}\nNo durable-send figures in this run.\n`;
  lines.push(
    '| server | in flight | acknowledged | acknowledged/s | p50 / p99 ms | failed sends | CPU % server / generator / other | found by paging + by GET | lost |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const result of report.durable) {
    lines.push(
      row([
        result.label === 'baseline' ? 'bare http + SQLite' : 'ours',
        String(result.inFlight),
        durableCells(result).acknowledged,
        fmtInt(result.ackedPerSecond),
        `${fmtMs(result.p50)} / ${fmtMs(result.p99)}`,
        durableCells(result).failed,
        `${result.serverCpu.toFixed(0)} / ${result.generatorCpu.toFixed(0)} / ${result.otherCpu.toFixed(0)}${result.otherCpu > BUSY_OTHER_PCT ? ' †' : ''}`,
        `${fmtInt(result.foundByQuery)} + ${fmtInt(result.foundByGet)}`,
        durableCells(result).lost,
      ]),
    );
  }
  if (report.durable.some((result) => result.otherCpu > BUSY_OTHER_PCT)) {
    lines.push(
      '',
      `† processes outside the benchmark used more than ${BUSY_OTHER_PCT} % of a core during the run.`,
    );
  }
  const ours = report.durable.find((result) => result.label === 'ours');
  const baseline = report.durable.find((result) => result.label === 'baseline');
  if (ours) {
    const ratio = baseline
      ? ` (${fmtRatio(ours.ackedPerSecond / baseline.ackedPerSecond)} of the baseline)`
      : '';
    lines.push(
      '',
      `Goal: ≥ ${fmtInt(DURABLE_GOAL_PER_SECOND)} acknowledged sends/s on SQLite with nothing acknowledged lost. ` +
        `Ours: ${fmtInt(ours.ackedPerSecond)}/s${ratio}, ${fmtInt(ours.lost)} lost: ` +
        `**${ours.ackedPerSecond >= DURABLE_GOAL_PER_SECOND && ours.lost === 0 ? 'met' : 'missed'}**.`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** The cells both durable tables show: acknowledged sends, failed sends (with the errors), lost ids (with a sample). */
export function durableCells(result: DurableResult): {
  acknowledged: string;
  failed: string;
  lost: string;
} {
  const failed = result.attempted - result.acked;
  return {
    acknowledged: `${fmtInt(result.acked)} in ${result.seconds.toFixed(1)} s`,
    failed: failed ? `${fmtInt(failed)} (${result.errors.join('; ')})` : '0',
    lost: result.lost ? `**${fmtInt(result.lost)}** (${result.lostSample.join(', ')})` : '0',
  };
}

/** Replaces this benchmark's two sections of BENCHMARKS.md (appending them if absent); other sections stay as they are. */
export function updateBenchmarksFile(path: string, rendered: RenderedReport): void {
  let text = existsSync(path) ? readFileSync(path, 'utf8') : '# Benchmarks\n';
  text = replaceSection(text, FANOUT_HEADING, rendered.fanout);
  text = replaceSection(text, DURABLE_HEADING, rendered.durable);
  writeFileSync(path, text);
}

export function replaceSection(text: string, heading: string, section: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.trim() === heading);
  if (start < 0) return `${text.replace(/\n*$/, '\n')}\n${section}`;
  let end = lines.findIndex((line, index) => index > start && /^## /.test(line));
  if (end < 0) end = lines.length;
  const after = lines.slice(end).join('\n');
  return `${[...lines.slice(0, start), section.replace(/\n*$/, '')].join('\n')}\n${after ? `\n${after}` : ''}`;
}

function notices(report: RunReport): string[] {
  const lines: string[] = [];
  if (report.oursUnavailable)
    lines.push(`> Our chat server was not measured: ${report.oursUnavailable}.`, '');
  if (report.failures.length)
    lines.push(...report.failures.map((failure) => `> Failed: ${failure.split('\n')[0]}`), '');
  return lines;
}

function runContext(report: RunReport): string {
  const date = report.startedAt.toISOString().slice(0, 10);
  return `measured ${date}, Node ${process.version}, 2 vCPU shared by server and generator`;
}

function maxSustained(result: FanoutResult): StepResult | null {
  const sustained = result.steps.filter((step) => step.drained && step.p99 < SUSTAINED_P99_MS);
  return sustained.reduce<StepResult | null>(
    (best, step) => (!best || step.deliveriesPerSecond > best.deliveriesPerSecond ? step : best),
    null,
  );
}

function peakDelivered(result: FanoutResult): StepResult | null {
  return result.steps
    .filter((step) => step.drained)
    .reduce<StepResult | null>(
      (best, step) => (!best || step.deliveriesPerSecond > best.deliveriesPerSecond ? step : best),
      null,
    );
}

function find(results: FanoutResult[], kind: string, n: number): FanoutResult | undefined {
  return results.find((result) => serverKind(result.label) === kind && result.n === n);
}

function serverKind(label: string): string {
  return label.split(' ')[0] ?? label;
}

function serverName(label: string): string {
  return serverKind(label) === 'baseline' ? 'bare ws' : 'ours';
}

function latency(step: StepResult): string {
  return `${fmtMs(step.p50)} / ${fmtMs(step.p99)}`;
}

export function delivered(step: StepResult): string {
  const share = step.expected ? (step.delivered / step.expected) * 100 : 0;
  return step.drained ? '100 %' : `${share.toFixed(1)} % of ${fmtInt(step.expected)}`;
}

function cpu(step: StepResult): string {
  const busy = step.otherCpu > BUSY_OTHER_PCT ? ' †' : '';
  const repeated = step.attempts > 1 ? ` (quietest of ${step.attempts} runs)` : '';
  return `${step.serverCpu.toFixed(0)} / ${step.generatorCpu.toFixed(0)} / ${step.otherCpu.toFixed(0)}${busy}${repeated}`;
}

/** '–' when a side is missing (the ratio is NaN), so an absent server never reads as a miss. */
function met(ok: boolean, ratio: number): string {
  if (!Number.isFinite(ratio)) return '–';
  return ok ? 'yes' : '**no**';
}

export function row(cells: string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|').replace(/\n/g, ' ')).join(' | ')} |`;
}

export function fmtInt(value: number): string {
  return Number.isFinite(value) ? Math.round(value).toLocaleString('en-US') : '–';
}

export function fmtMs(value: number): string {
  if (!Number.isFinite(value)) return '–';
  return value < 10 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US');
}

/** CPU per operation is a fraction of a millisecond: one decimal would hide a 20 % change. */
export function fmtCpuMs(value: number): string {
  return Number.isFinite(value) ? value.toFixed(2) : '–';
}

export function fmtKb(bytes: number): string {
  return Number.isFinite(bytes) ? (bytes / 1024).toFixed(1) : '–';
}

export function fmtMb(bytes: number): string {
  return (bytes / 1024 / 1024).toFixed(0);
}

export function fmtRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}×` : '–';
}
