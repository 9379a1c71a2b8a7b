import { totals } from './assets.ts';
import type { PageLoad } from './browser.ts';

export interface Timing {
  label: string;
  runsMs: number[];
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
  /** Chunks the guest `/chat` loaded that `/` did not. */
  chatOnlyChunks: string[];
  totalSeconds: number;
}

const kb = (bytes: number): string =>
  `${(bytes / 1024).toLocaleString('en-US', { maximumFractionDigits: 1, minimumFractionDigits: 1 })} KB`;
const ms = (value: number): string => `${Math.round(value).toLocaleString('en-US')} ms`;

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

export function renderReport(report: WebReport): string {
  const lines: string[] = [];
  lines.push('### Shipped JS and CSS (first load, empty cache)', '');
  lines.push('| page | JS gzip | JS raw | CSS gzip | CSS raw | total gzip | files |');
  lines.push('|---|---:|---:|---:|---:|---:|---:|');
  for (const load of report.loads) {
    const sum = totals(load.assets);
    lines.push(
      `| ${loadLabel(load)} | ${kb(sum.jsGzip)} | ${kb(sum.jsRaw)} | ${kb(sum.cssGzip)} | ${kb(sum.cssRaw)} | ${kb(sum.jsGzip + sum.cssGzip)} | ${load.assets.length} |`,
    );
  }
  lines.push('', 'Chunks per page (gzip):', '');
  for (const load of report.loads) {
    const list = load.assets
      .map((asset) => `${chunkName(asset.path)} ${kb(asset.gzipBytes)}`)
      .join(', ');
    lines.push(`- ${loadLabel(load)}: ${list}`);
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
  return lines.join('\n');
}

export function renderSection(report: WebReport, body: string): string {
  return [
    '## Web build',
    '',
    `Reproduce: \`npm run bench:web\` (runs \`node --import tsx bench/web/index.ts\`; \`--no-build\` reuses apps/web/dist, \`--runs=N\` sets the timing runs, \`--no-write\` only prints). Measured ${report.date} in ${report.totalSeconds.toFixed(0)} s.`,
    '',
    `What it measures (\`bench/web/\`): the production build (\`npm run build -w @daohuu/web\`) served by the real product server (\`apps/server/src/main.ts\`, fresh data directory, \`SEED_DEMO=true\`) on 127.0.0.1, loaded in headless Chromium. Bytes: every JS and CSS response of one fresh load (empty cache) until \`load\`, network idle and, on \`/chat\`, the first message; gzip sizes are \`zlib.gzipSync\` level 9 of each response body, computed by the bench (not what the server sent). A chunk counts as stream-chat-react code when its body contains the library's \`str-chat__\` class prefix. Times: an init script's MutationObserver records \`performance.now()\` (0 = navigation start) when the first \`.str-chat__main-panel .str-chat__message\` (chat) or the first \`h1\` (\`/\`, the baseline of the same run) is in the DOM with a non-empty box; the signed-in runs sign in through \`POST /api/auth/sign-in/email\` before navigating, so sign-in is not counted.`,
    '',
    `Machine: ${report.cpus} cores (virtualised, **shared and loaded by other jobs during the run**: absolute times are noisy, the ratio to the \`/\` heading measured in the same run is the figure to compare), Node ${report.node}, ${report.chromium} headless, server and browser on the same cores.`,
    '',
    body,
    '',
  ].join('\n');
}
