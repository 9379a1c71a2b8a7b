import { launchChromium } from '../browser.ts';
import { PROBE_SCRIPT } from '../page-probe.ts';
import { startProductServer } from '../server.ts';

const server = await startProductServer(process.cwd());
const browser = await launchChromium();
try {
  for (let round = 0; round < 2; round++) {
    const context = await browser.newContext({ baseURL: server.baseUrl, locale: 'vi-VN', viewport: { width: 1280, height: 800 } });
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto('/chat', { waitUntil: 'commit' });
    await page.locator('.str-chat__main-panel .str-chat__message').first().waitFor();
    const mark = await page.evaluate('window.__daohuuBench.message');
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: { nodes: { id: number; callFrame: { url: string; functionName: string }; children?: number[] }[]; samples: number[]; timeDeltas: number[]; startTime: number } };
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const selfByUrl = new Map<string, number>();
    const selfByFn = new Map<string, number>();
    // only samples before the mark
    let t = 0;
    const navStart = profile.startTime;
    profile.samples.forEach((id, i) => {
      t += profile.timeDeltas[i]!;
      const n = byId.get(id)!;
      const url = n.callFrame.url.replace(server.baseUrl, '') || `(${n.callFrame.functionName || 'native'})`;
      selfByUrl.set(url, (selfByUrl.get(url) ?? 0) + profile.timeDeltas[i]! / 1000);
      const fn = `${n.callFrame.functionName || '(anon)'} ${url}`;
      selfByFn.set(fn, (selfByFn.get(fn) ?? 0) + profile.timeDeltas[i]! / 1000);
    });
    console.log('mark', mark, 'profile span ms', t / 1000);
    console.log([...selfByUrl].sort((a, b) => b[1] - a[1]).slice(0, 15).map(([u, ms]) => `${ms.toFixed(0).padStart(5)} ${u}`).join('\n'));
    console.log('--- fns');
    console.log([...selfByFn].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([u, ms]) => `${ms.toFixed(0).padStart(5)} ${u}`).join('\n'));
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
