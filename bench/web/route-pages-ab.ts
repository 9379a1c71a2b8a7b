/**
 * The chat page with and without its hints (apps/web/route-pages-plugin.ts), in one run: the product server answers
 * /chat with dist/chat.html while it exists and with index.html otherwise, so the file is moved aside between the
 * two loads of each round. Run after `npm run build -w @daohuu/web`:
 *
 *   node --import tsx bench/web/route-pages-ab.ts [--rounds=8] [--latency-ms=60]
 *
 * `--latency-ms` adds Chromium's network emulation (that latency on every request, 20 Mbit/s down, 5 up), which
 * loopback otherwise lacks. Prints the median time to the `/` heading and to the first chat message with and
 * without the hints (ms from navigation start, the page's own clock; bench/web/page-probe.ts).
 */
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from './browser.ts';
import { PROBE_SCRIPT, type ProbeMarks } from './page-probe.ts';
import { startProductServer } from './server.ts';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '8' },
    'latency-ms': { type: 'string', default: '0' },
  },
});
const rounds = Number(values.rounds);
const latency = Number(values['latency-ms']);
const repoRoot = process.cwd();
const hinted = join(repoRoot, 'apps/web/dist/chat.html');
const aside = `${hinted}.aside`;
if (!existsSync(hinted))
  throw new Error('apps/web/dist/chat.html is missing: build the web app first');

const server = await startProductServer(repoRoot);
const browser = await launchChromium();

async function timeTo(path: string, mark: keyof ProbeMarks): Promise<number> {
  const context = await browser.newContext({
    baseURL: server.baseUrl,
    locale: 'vi-VN',
    viewport: { width: 1280, height: 800 },
  });
  try {
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    if (latency > 0) {
      const cdp = await context.newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency,
        downloadThroughput: 20e6 / 8,
        uploadThroughput: 5e6 / 8,
      });
    }
    await page.goto(path, { waitUntil: 'commit' });
    const expression = `window.__daohuuBench ? window.__daohuuBench[${JSON.stringify(mark)}] : undefined`;
    for (let attempt = 0; attempt < 1500; attempt += 1) {
      const value: unknown = await page.evaluate(expression).catch(() => undefined);
      if (typeof value === 'number') return value;
      await page.waitForTimeout(20);
    }
    throw new Error(`no ${mark} mark on ${path}`);
  } finally {
    await context.close();
  }
}

const times = { home: [] as number[], hinted: [] as number[], plain: [] as number[] };
try {
  await timeTo('/chat', 'message'); // warms the server's caches and JIT for both variants alike
  for (let round = 0; round < rounds; round += 1) {
    times.home.push(await timeTo('/', 'heading'));
    times.hinted.push(await timeTo('/chat', 'message'));
    renameSync(hinted, aside);
    try {
      times.plain.push(await timeTo('/chat', 'message'));
    } finally {
      renameSync(aside, hinted);
    }
  }
} finally {
  await browser.close();
  await server.stop();
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const home = median(times.home);
console.info(`rounds ${rounds}, latency ${latency} ms`);
for (const [name, xs] of Object.entries(times)) {
  const value = median(xs);
  console.info(
    `${name.padEnd(6)} median ${Math.round(value)} ms (${(value / home).toFixed(2)}× the / heading): ${xs.map(Math.round).join(' ')}`,
  );
}
