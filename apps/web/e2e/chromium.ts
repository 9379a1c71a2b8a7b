// Debian's Chromium as the browser suite (playwright.config.ts) and the web benchmark (bench/web) launch it: from
// Debian's packages, never downloaded, without the background services a test or a measurement would only wait on.
export const FULL_BROWSER = '/usr/bin/chromium';
export const HEADLESS_SHELL = '/usr/lib/chromium/chromium-headless-shell';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
