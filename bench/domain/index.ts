// `npm run bench:domain`: realm lookups and amount formatting against naive baselines, side by side in one process.
import { availableParallelism } from 'node:os';
import { formatAmount, realmIndexOf, realmName } from '@daohuu/domain';
import { linearRealmIndexOf, naiveFormatAmount, naiveRealmName } from './baseline.ts';
import { compare, sinkValue } from './measure.ts';
import type { Comparison, MeasureSettings } from './measure.ts';

const SETTINGS: MeasureSettings = { warmupMs: 200, roundMs: 250, rounds: 5 };
const INPUT_COUNT = 4_096;

// mulberry32: a fixed seed gives the same inputs on every run.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

// Log-uniform, so every realm (and every amount size) is hit, not just the top rows.
function logUniform(
  random: () => number,
  count: number,
  maxExponent: number,
  decimals: number,
): number[] {
  const scale = 10 ** decimals;
  return Array.from(
    { length: count },
    () => Math.round(10 ** (random() * maxExponent) * scale) / scale,
  );
}

const random = seededRandom(20_260_101);
const tuViInputs = logUniform(random, INPUT_COUNT, 12.5, 0);
const amountInputs = logUniform(random, INPUT_COUNT, 10, 2);

interface BenchCase {
  name: string;
  ours: string;
  baseline: string;
  check: () => void;
  run: () => Comparison;
}

function assertSame<T>(
  label: string,
  inputs: readonly T[],
  a: (input: T) => unknown,
  b: (input: T) => unknown,
): void {
  for (const input of inputs) {
    if (a(input) !== b(input))
      throw new Error(`${label}: ours and baseline disagree on ${String(input)}`);
  }
}

const modes = [1, 2, 'currency'] as const;

const cases: BenchCase[] = [
  {
    name: 'realm index',
    ours: 'realmIndexOf (binary search)',
    baseline: 'linear scan',
    check: () => assertSame('realm index', tuViInputs, realmIndexOf, linearRealmIndexOf),
    run: () => compare(realmIndexOf, linearRealmIndexOf, tuViInputs, SETTINGS),
  },
  {
    name: 'realm name',
    ours: 'realmName (binary search, names built once)',
    baseline: 'linear scan + name built per call',
    check: () => assertSame('realm name', tuViInputs, (v) => realmName(v), naiveRealmName),
    run: () => compare((v: number) => realmName(v), naiveRealmName, tuViInputs, SETTINGS),
  },
  ...modes.map((mode): BenchCase => ({
    name: `format mode ${mode}`,
    ours: 'formatAmount (cached Intl.NumberFormat)',
    baseline: 'new Intl.NumberFormat per call',
    check: () =>
      assertSame(
        `format ${mode}`,
        amountInputs,
        (v) => formatAmount(v, mode),
        (v) => naiveFormatAmount(v, mode),
      ),
    run: () =>
      compare(
        (v: number) => formatAmount(v, mode),
        (v: number) => naiveFormatAmount(v, mode),
        amountInputs,
        SETTINGS,
      ),
  })),
];

function opsPerSec(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

const started = Date.now();
console.info(
  `bench:domain: Node ${process.version}, ${availableParallelism()} cores; ${INPUT_COUNT} seeded inputs; ` +
    `warm-up ${SETTINGS.warmupMs} ms, then ${SETTINGS.rounds} alternating rounds of ${SETTINGS.roundMs} ms per side; ` +
    'medians reported, ratio = median of per-round ours / baseline.\n',
);
for (const benchCase of cases) benchCase.check();

const rows = cases.map((benchCase) => {
  const result = benchCase.run();
  return [
    benchCase.name,
    `${benchCase.ours}`,
    opsPerSec(result.oursOpsPerSec),
    `${benchCase.baseline}`,
    opsPerSec(result.baselineOpsPerSec),
    `${result.ratio.toFixed(2)}×`,
  ];
});

const header = ['case', 'ours', 'ours ops/s', 'baseline', 'baseline ops/s', 'ours / baseline'];
console.info(`| ${header.join(' | ')} |`);
console.info(
  `|${header.map((_, i) => (i === 0 || i === 1 || i === 3 ? '---' : '---:')).join('|')}|`,
);
for (const row of rows) console.info(`| ${row.join(' | ')} |`);
console.info(
  `\ntotal ${((Date.now() - started) / 1_000).toFixed(1)} s (sink ${sinkValue() % 997})`,
);
