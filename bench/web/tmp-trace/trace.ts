import { launchChromium } from '../browser.ts';
import { PROBE_SCRIPT } from '../page-probe.ts';
import { startProductServer } from '../server.ts';

const server = await startProductServer(process.cwd());
const browser = await launchChromium();
try {
  for (let round = 0; round < 3; round++) {
    const context = await browser.newContext({ baseURL: server.baseUrl, locale: 'vi-VN', viewport: { width: 1280, height: 800 } });
    await context.addInitScript({ content: PROBE_SCRIPT });
    const page = await context.newPage();
    const wsAt: string[] = [];
    const t0 = Date.now();
    page.on('websocket', (ws) => { wsAt.push(`ws open req ${Date.now() - t0}`); ws.on('framereceived', (f) => { if (wsAt.length < 3) wsAt.push(`ws frame ${Date.now() - t0} ${String(f.payload).slice(0, 60)}`); }); });
    await page.goto('/chat', { waitUntil: 'commit' });
    await page.locator('.str-chat__main-panel .str-chat__message').first().waitFor();
    await page.waitForTimeout(300);
    const data = await page.evaluate(`(() => ({
      marks: window.__daohuuBench,
      nav: performance.getEntriesByType('navigation').map(e => ({dcl: e.domContentLoadedEventEnd, load: e.loadEventEnd, resp: e.responseEnd})),
      res: performance.getEntriesByType('resource').map(e => [e.name.replace(location.origin,''), Math.round(e.startTime), Math.round(e.responseEnd), e.initiatorType, e.transferSize]),
      paints: performance.getEntriesByType('paint').map(e => [e.name, Math.round(e.startTime)]),
      lt: performance.getEntriesByType('longtask').map(e => [Math.round(e.startTime), Math.round(e.duration)]),
    }))()`);
    console.log(JSON.stringify(data, null, 0).replace(/\],\[/g, '],\n['));
    console.log(wsAt.join('\n'));
    await context.close();
  }
} finally {
  await browser.close();
  await server.stop();
}
