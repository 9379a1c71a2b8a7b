// A small side-by-side timer: both functions run in the same process, alternating, so machine noise hits both.
import { performance } from 'node:perf_hooks';

export interface MeasureSettings {
  warmupMs: number;
  roundMs: number;
  rounds: number;
}

export interface Comparison {
  oursOpsPerSec: number;
  baselineOpsPerSec: number;
  /** Median of the per-round ratios ours / baseline (paired rounds resist drift better than a ratio of medians). */
  ratio: number;
}

const CHUNK = 256;

// Results feed this so the JIT cannot drop the calls being measured.
let sink = 0;

export function sinkValue(): number {
  return sink;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function run<T>(fn: (input: T) => string | number, inputs: readonly T[], ms: number): number {
  let calls = 0;
  let cursor = 0;
  const started = performance.now();
  const deadline = started + ms;
  let now = started;
  while (now < deadline) {
    for (let i = 0; i < CHUNK; i += 1) {
      const result = fn(inputs[cursor] as T);
      sink += typeof result === 'string' ? result.length : result;
      cursor = cursor + 1 === inputs.length ? 0 : cursor + 1;
    }
    calls += CHUNK;
    now = performance.now();
  }
  return (calls / (now - started)) * 1_000;
}

export function compare<T>(
  ours: (input: T) => string | number,
  baseline: (input: T) => string | number,
  inputs: readonly T[],
  settings: MeasureSettings,
): Comparison {
  run(ours, inputs, settings.warmupMs);
  run(baseline, inputs, settings.warmupMs);
  const oursRounds: number[] = [];
  const baselineRounds: number[] = [];
  const ratios: number[] = [];
  for (let round = 0; round < settings.rounds; round += 1) {
    // Alternate which side goes first so neither always gets the warmer (or hotter) slot.
    let a: number;
    let b: number;
    if (round % 2 === 0) {
      a = run(ours, inputs, settings.roundMs);
      b = run(baseline, inputs, settings.roundMs);
    } else {
      b = run(baseline, inputs, settings.roundMs);
      a = run(ours, inputs, settings.roundMs);
    }
    oursRounds.push(a);
    baselineRounds.push(b);
    ratios.push(a / b);
  }
  return {
    oursOpsPerSec: median(oursRounds),
    baselineOpsPerSec: median(baselineRounds),
    ratio: median(ratios),
  };
}
