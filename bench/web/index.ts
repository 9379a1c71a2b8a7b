// `npm run bench:web`: bytes shipped for `/` and `/chat`, and time to the first chat message, on the production build.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { format, resolveConfig } from 'prettier';
import { launchChromium, loadAssets, timeToVisible } from './browser.ts';
import type { PageLoad, Visitor } from './browser.ts';
import { BUNDLE_REPORT_FILE, chatModulesIn, readBundleReport } from './bundle.ts';
import type { BundleReport } from './bundle.ts';
import { firstLoadGzip, kb, median, renderReport, renderSection } from './report.ts';
import type { BudgetCheck, Timing, WebReport } from './report.ts';
import { startProductServer } from './server.ts';
import type { RunningServer } from './server.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// The whole run must stay bounded even when a step hangs on a loaded machine.
const OVERALL_TIMEOUT_MS = 420_000;

// The web-experience budgets: `/` at most 150 KB of JS and CSS (gzip), `/chat` no more than stream-chat-react's own
// stock chat page measured on this stack (599 KB), and the first chat message within 1.6× the `/` heading time.
const HOME_BUDGET_BYTES = 150 * 1024;
const CHAT_BUDGET_BYTES = 599 * 1024;
const CHAT_TIME_RATIO_BUDGET = 1.6;

interface Options {
  build: boolean;
  write: boolean;
  runs: number;
}

function parseOptions(argv: string[]): Options {
  const runsArg = argv.find((arg) => arg.startsWith('--runs='));
  const runs = runsArg ? Number(runsArg.slice('--runs='.length)) : 7;
  if (!Number.isInteger(runs) || runs < 1 || runs > 50)
    throw new Error('--runs must be a whole number from 1 to 50');
  return { build: !argv.includes('--no-build'), write: !argv.includes('--no-write'), runs };
}

// The section goes through the repository's Prettier settings, so `npm run format:check` stays clean.
async function writeSection(rawSection: string): Promise<void> {
  const file = join(REPO_ROOT, 'BENCHMARKS.md');
  const section = await format(rawSection, { ...(await resolveConfig(file)), parser: 'markdown' });
  const current = readFileSync(file, 'utf8');
  const start = current.indexOf('\n## Web build\n');
  let next: string;
  if (start === -1) {
    next = `${current.trimEnd()}\n\n${section}`;
  } else {
    const after = current.indexOf('\n## ', start + 1);
    next = `${current.slice(0, start + 1)}${section}${after === -1 ? '' : `\n${current.slice(after + 1)}`}`;
  }
  writeFileSync(file, next.endsWith('\n') ? next : `${next}\n`);
}

interface Series {
  label: string;
  path: string;
  visitor: Visitor;
  mark: 'message' | 'fullChat' | 'heading';
  informational?: boolean;
}

const SERIES: Series[] = [
  {
    label: '`/` main heading, signed out (baseline)',
    path: '/',
    visitor: 'guest',
    mark: 'heading',
  },
  { label: '`/chat` first message, signed out', path: '/chat', visitor: 'guest', mark: 'message' },
  {
    label: '`/chat` first message, signed in (demo admin)',
    path: '/chat',
    visitor: 'admin',
    mark: 'message',
  },
  // The opening channel's preview comes first; this is when stream-chat-react's own list has drawn.
  {
    label: '`/chat` first message in the full chat (stream-chat-react), signed out',
    path: '/chat',
    visitor: 'guest',
    mark: 'fullChat',
    informational: true,
  },
  {
    label: '`/chat` first message in the full chat (stream-chat-react), signed in (demo admin)',
    path: '/chat',
    visitor: 'admin',
    mark: 'fullChat',
    informational: true,
  },
];

// Rounds interleave the series, so a burst of load from other jobs on the shared machine hits all of them alike.
async function timeSeries(browser: Browser, baseUrl: string, runs: number): Promise<Timing[]> {
  const timings = SERIES.map((series): Timing => ({
    label: series.label,
    runsMs: [],
    ...(series.informational ? { informational: true } : {}),
  }));
  for (let run = 0; run < runs; run += 1) {
    for (const [index, series] of SERIES.entries()) {
      const value = await timeToVisible(browser, baseUrl, series.path, series.visitor, series.mark);
      timings[index]?.runsMs.push(value);
    }
  }
  for (const timing of timings) {
    console.info(
      `${timing.label}: ${timing.runsMs.map((value) => value.toFixed(0)).join(', ')} ms`,
    );
  }
  return timings;
}

async function measure(
  options: Options,
  server: RunningServer,
  browser: Browser,
  startedAt: number,
): Promise<WebReport> {
  const { baseUrl } = server;
  const loads: PageLoad[] = [];
  for (const [path, visitor] of [
    ['/', 'guest'],
    ['/chat', 'guest'],
    ['/chat', 'admin'],
  ] as const) {
    loads.push(await loadAssets(browser, baseUrl, path, visitor));
  }
  const [home, guestChat] = loads as [PageLoad, PageLoad, PageLoad];
  const homePaths = new Set(home.assets.map((asset) => asset.path));

  const [baseline, ...chat] = (await timeSeries(browser, baseUrl, options.runs)) as [
    Timing,
    ...Timing[],
  ];

  const bundle = readBundleReport(join(REPO_ROOT, BUNDLE_REPORT_FILE));
  const report: WebReport = {
    date: new Date().toISOString().slice(0, 10),
    chromium: `Chromium ${browser.version()}`,
    node: process.versions.node,
    cpus: availableParallelism(),
    runs: options.runs,
    loads,
    baseline,
    chat,
    homeChatChunks: home.assets.filter((asset) => asset.streamChatReact).map((asset) => asset.path),
    chatOnlyChunks: guestChat.assets
      .filter((asset) => !homePaths.has(asset.path))
      .map((asset) => asset.path),
    bundle,
    budgets: [],
    totalSeconds: (performance.now() - startedAt) / 1000,
  };
  report.budgets = checkBudgets(report, bundle);
  return report;
}

function checkBudgets(report: WebReport, bundle: BundleReport | undefined): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const load of report.loads) {
    const limit = load.path === '/' ? HOME_BUDGET_BYTES : CHAT_BUDGET_BYTES;
    const bytes = firstLoadGzip(load);
    checks.push({
      label: `\`${load.path}\` ${load.visitor === 'guest' ? 'signed out' : 'signed in'}, first load gzip`,
      limit: kb(limit),
      measured: kb(bytes),
      ok: bytes <= limit,
    });
  }
  const base = median(report.baseline.runsMs);
  for (const timing of report.chat.filter((entry) => !entry.informational)) {
    const ratio = median(timing.runsMs) / base;
    checks.push({
      label: `${timing.label} ÷ \`/\` heading (medians)`,
      limit: `${CHAT_TIME_RATIO_BUDGET.toFixed(2)}×`,
      measured: `${ratio.toFixed(2)}×`,
      ok: ratio <= CHAT_TIME_RATIO_BUDGET,
    });
  }
  const home = report.loads.find((load) => load.path === '/');
  const chatModules = bundle && home ? chatModulesIn(bundle, home.assets) : undefined;
  checks.push({
    label:
      '`/` signed out, whole visit: stream-chat and stream-chat-react modules (build metadata) and `str-chat__` chunks',
    limit: '0',
    measured: chatModules
      ? `${chatModules.length + report.homeChatChunks.length}${chatModules.length ? ` (${chatModules.join(', ')})` : ''}`
      : 'no build metadata (run without --no-build)',
    ok: chatModules !== undefined && chatModules.length === 0 && report.homeChatChunks.length === 0,
  });
  return checks;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const startedAt = performance.now();
  if (options.build) {
    console.info('building @daohuu/web…');
    execFileSync('npm', ['run', 'build', '-w', '@daohuu/web'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, WEB_BUNDLE_REPORT: join(REPO_ROOT, BUNDLE_REPORT_FILE) },
    });
  } else if (!existsSync(join(REPO_ROOT, 'apps/web/dist/index.html'))) {
    throw new Error('--no-build needs an existing apps/web/dist; run without it once');
  }

  const server = await startProductServer(REPO_ROOT);
  let browser: Browser | undefined;
  const cleanUp = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await server.stop();
  };
  const onSignal = (): void => {
    void cleanUp().finally(() => process.exit(130));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const watchdog = setTimeout(() => {
    console.error(`bench:web took longer than ${OVERALL_TIMEOUT_MS / 1000} s, stopping`);
    void cleanUp().finally(() => process.exit(1));
  }, OVERALL_TIMEOUT_MS);
  watchdog.unref();

  try {
    browser = await launchChromium();
    const report = await measure(options, server, browser, startedAt);
    const body = renderReport(report);
    console.info(`\n${body}\n`);
    if (options.write) {
      await writeSection(renderSection(report, body));
      console.info('wrote the "## Web build" section of BENCHMARKS.md');
    }
    const over = report.budgets.filter((check) => !check.ok);
    if (over.length) {
      console.error(`over budget: ${over.map((check) => check.label).join('; ')}`);
      process.exitCode = 1;
    }
  } finally {
    clearTimeout(watchdog);
    await cleanUp();
  }
}

await main();
