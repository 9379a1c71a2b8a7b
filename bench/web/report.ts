import { totals } from './assets.ts';
import type { Asset } from './assets.ts';
import type { PageLoad } from './browser.ts';
import { breakdown } from './bundle.ts';
import type { BundleReport } from './bundle.ts';

export interface Timing {
  label: string;
  runsMs: number[];
  /** Shown for information; no budget applies. */
  informational?: boolean;
}

export interface WebReport {
  date: string;
  chromium: string;
  node: string;
  cpus: number;
  runs: number;
  loads: PageLoad[];
  baseline: Timing;
  chat: Timing[];
  /** Chunks `/` loaded whose body carries stream-chat-react code; must be empty. */
  homeChatChunks: string[];
  /** The build's chunk metadata, when the bench built the app itself (or a previous run left it). */
  bundle: BundleReport | undefined;
  budgets: BudgetCheck[];
  /** Chunks the guest `/chat` loaded that `/` did not. */
  chatOnlyChunks: string[];
  totalSeconds: number;
}

const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;

export interface BudgetCheck {
  label: string;
  limit: string;
  measured: string;
  ok: boolean;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function loadLabel(load: PageLoad): string {
  return `\`${load.path}\` ${load.visitor === 'guest' ? 'signed out' : 'signed in (demo admin)'}`;
}

function chunkName(path: string): string {
  return path.replace(/^\/assets\//, '');
}

export const kb = (bytes: number): string =>
  `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 })} KB`;

/** Gzip bytes of JS and CSS in the page's first load: the figure the budgets hold. */
export function firstLoadGzip(load: PageLoad): number {
  const sum = totals(load.firstLoad);
  return sum.jsGzip + sum.cssGzip;
}

function renderBytes(report: WebReport, lines: string[]): void {
  lines.push('### Shipped JS and CSS (first load, empty cache)', '');
  lines.push(
    '| page | JS gzip | JS raw | CSS gzip | CSS raw | first load gzip | files | later, until network idle |',
  );
  lines.push('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const load of report.loads) {
    const sum = totals(load.firstLoad);
    const later = load.assets.filter((asset) => !load.firstLoad.includes(asset));
    const laterSum = totals(later);
    lines.push(
      `| ${loadLabel(load)} | ${kb(sum.jsGzip)} | ${kb(sum.jsRaw)} | ${kb(sum.cssGzip)} | ${kb(sum.cssRaw)} | ${kb(sum.jsGzip + sum.cssGzip)} | ${load.firstLoad.length} | ${kb(laterSum.jsGzip + laterSum.cssGzip)} in ${later.length} files |`,
    );
  }
}

function chunkLine(report: WebReport, asset: Asset): string {
  const head = `${chunkName(asset.path)} ${kb(asset.gzipBytes)}`;
  // Small chunks speak for themselves; for the others, what they are made of (rendered, before minification).
  if (!report.bundle || asset.kind !== 'js' || asset.gzipBytes < 8 * 1024) return head;
  const { groups } = breakdown(report.bundle, asset, 6);
  const parts = groups.map((group) => `${group.name} ${kb(group.renderedBytes)}`);
  return parts.length ? `${head} (largest parts, rendered: ${parts.join(', ')})` : head;
}

export function renderReport(report: WebReport): string {
  const lines: string[] = [];
  renderBytes(report, lines);
  lines.push('', 'First-load chunks per page (gzip), largest first:', '');
  for (const load of report.loads) {
    const sorted = [...load.firstLoad].sort((a, b) => b.gzipBytes - a.gzipBytes);
    lines.push(`- ${loadLabel(load)}:`);
    for (const asset of sorted) lines.push(`  - ${chunkLine(report, asset)}`);
    const later = load.assets.filter((asset) => !load.firstLoad.includes(asset));
    if (later.length) {
      lines.push(
        `  - after first content: ${later.map((asset) => `${chunkName(asset.path)} ${kb(asset.gzipBytes)}`).join(', ')}`,
      );
    }
  }
  const homeClean = report.homeChatChunks.length === 0;
  lines.push(
    '',
    `Lazy chat: \`/\` loaded ${homeClean ? 'no chunk containing stream-chat-react code (good)' : `stream-chat-react code in ${report.homeChatChunks.map(chunkName).join(', ')} (**bad**)`}; chunks only \`/chat\` loads: ${report.chatOnlyChunks.map(chunkName).join(', ') || 'none'}.`,
  );
  lines.push(
    '',
    `### Time to first content (navigation start → element visible, ${report.runs} rounds; each round loads every row once, in a fresh context)`,
    '',
  );
  lines.push('| measure | median | min | max | median ÷ baseline |');
  lines.push('|---|---:|---:|---:|---:|');
  const base = median(report.baseline.runsMs);
  for (const timing of [report.baseline, ...report.chat]) {
    const mid = median(timing.runsMs);
    lines.push(
      `| ${timing.label} | ${ms(mid)} | ${ms(Math.min(...timing.runsMs))} | ${ms(Math.max(...timing.runsMs))} | ${timing === report.baseline ? '1.00× (baseline)' : `${(mid / base).toFixed(2)}×`} |`,
    );
  }
  lines.push('', '### Budgets', '', '| budget | limit | measured | |', '|---|---:|---:|---|');
  for (const check of report.budgets) {
    lines.push(
      `| ${check.label} | ${check.limit} | ${check.measured} | ${check.ok ? 'ok' : '**over**'} |`,
    );
  }
  return lines.join('\n');
}

export function renderSection(report: WebReport, body: string): string {
  return [
    '## Web build',
    '',
    `Reproduce: \`npm run bench:web\` (runs \`node --import tsx bench/web/index.ts\`; \`--no-build\` reuses apps/web/dist, \`--runs=N\` sets the timing runs, \`--no-write\` only prints). Measured ${report.date} in ${report.totalSeconds.toFixed(0)} s.`,
    '',
    `What it measures (\`bench/web/\`): the production build (\`npm run build -w @daohuu/web\`) served by the real product server (\`apps/server/src/main.ts\`, fresh data directory, \`SEED_DEMO=true\`) on 127.0.0.1, loaded in headless Chromium. Bytes: every JS and CSS response of one fresh load (empty cache) until \`load\`, network idle and, on \`/chat\`, the first message; the *first load* is what the browser asked for before the page's first content was visible (the \`h1\` on \`/\`, the first message on \`/chat\`) or before \`load\`, whichever came later, and the budgets apply to it; files the app fetches after that (menus, toaster and the sidebar's chat client, deferred to an idle moment after first content, see docs/decisions/0008-web-code-splitting.md) are counted in the last column. Gzip sizes are \`zlib.gzipSync\` level 9 of each response body, computed by the bench (not what the server sent). A chunk counts as stream-chat-react code when its body contains the library's \`str-chat__\` class prefix; the build also writes its chunk metadata (\`apps/web/bundle-report.ts\`, enabled by \`WEB_BUNDLE_REPORT\`), which names the modules in each chunk (their rendered size before minification) and lets the bench check that \`/\` downloads no stream-chat or stream-chat-react module. Times: an init script's MutationObserver records \`performance.now()\` (0 = navigation start) when the first chat message (a message of the opening channel's preview, \`[data-first-messages] [data-message-id]\`, or of stream-chat-react's list, \`.str-chat__main-panel .str-chat__message\`, whichever comes first; the full chat's own first message is reported beside it) or the first \`h1\` (\`/\`, the baseline of the same run) is in the DOM with a non-empty box; the signed-in runs sign in through \`POST /api/auth/sign-in/email\` before navigating, so sign-in is not counted.`,
    '',
    `Machine: ${report.cpus} cores (virtualised, **shared and loaded by other jobs during the run**: absolute times are noisy, the ratio to the \`/\` heading measured in the same run is the figure to compare), Node ${report.node}, ${report.chromium} headless, server and browser on the same cores.`,
    '',
    body,
    '',
  ].join('\n');
}
