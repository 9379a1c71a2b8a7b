import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, FULL_BROWSER, HEADLESS_SHELL } from './apps/web/e2e/chromium.ts';

// E2E_PORT lets two runs on one machine (two worktrees) use different ports; the short-token app takes the next one.
const PORT = Number(process.env.E2E_PORT ?? 3101);
const baseURL = `http://127.0.0.1:${PORT}`;

// One fresh data directory per run. The config is also evaluated in every worker, which inherit the
// runner's environment, so the directory is created once and shared through it.
process.env.DAOHUU_E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'daohuu-e2e-'));
const dataDir = process.env.DAOHUU_E2E_DATA_DIR;

// A second server whose chat tokens live a few seconds, for the token-expiry test only. Its data sits inside the
// first one's directory, so the global teardown removes both.
const SHORT_TOKEN_PORT = PORT + 1;
const shortTokenBaseURL = `http://127.0.0.1:${SHORT_TOKEN_PORT}`;
const SHORT_TOKEN_SPEC = /chat-token-expiry\.spec\.ts$/;

// Debian's headless shell (`apt-get install chromium-headless-shell`) is the same Chromium without the desktop
// browser around it: the suite needs about a quarter less time in it than in the full browser, on a CI box where
// the browser's CPU is most of a test's time. The full browser still runs the suite where the shell is not installed,
// and always runs the specs of browser notifications: in the shell `Notification.permission` stays "denied", whatever
// permission the test grants.
const FULL_BROWSER_SPECS = /notifications-(breakthrough|browser)\.spec\.ts$/;
const launchOptions = (executablePath: string) => ({ executablePath, args: CHROMIUM_ARGS });

export default defineConfig({
  testDir: './apps/web/e2e',
  outputDir: './test-results',
  workers: 1,
  fullyParallel: false,
  retries: 0,
  reporter: [['list'], ...(process.env.PLAYWRIGHT_JSON_OUTPUT_NAME ? [['json'] as ['json']] : [])],
  timeout: 30_000,
  expect: { timeout: 5_000 },
  globalTeardown: './apps/web/e2e/global-teardown.ts',
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    locale: 'vi-VN',
    reducedMotion: 'reduce',
    // Traces keep DOM snapshots (what diagnosed the theme test's flake), not the screencast: a clean-clone CI run once
    // hung for 30 s closing a context while it stopped that test's trace, and the frames are most of that work.
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: launchOptions(existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : FULL_BROWSER),
  },
  projects: [
    { name: 'app', testIgnore: [SHORT_TOKEN_SPEC, FULL_BROWSER_SPECS] },
    {
      name: 'browser-notifications',
      testMatch: FULL_BROWSER_SPECS,
      use: { launchOptions: launchOptions(FULL_BROWSER) },
    },
    { name: 'short-chat-tokens', testMatch: SHORT_TOKEN_SPEC, use: { baseURL: shortTokenBaseURL } },
  ],
  webServer: [
    {
      // Build first so the suite never runs against a stale apps/web/dist (start.mjs only builds when it is missing).
      command: 'npm run build -w @daohuu/web && node scripts/start.mjs',
      url: `${baseURL}/api/me`,
      // /api/me answers 401 to guests, which Playwright counts as up (any status below 404).
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        DATA_DIR: dataDir,
        SEED_DEMO: 'true',
        // The suite signs in and up, and calls the API, far more often than a person would from one address.
        AUTH_RATE_LIMIT_MAX_PER_IP: '10000',
        API_RATE_LIMIT_MAX_PER_IP: '100000',
        // chat-attachments.spec.ts serves a page to preview on this loopback name (never set in production), and
        // chat-composer-details.spec.ts a slow one on a port of its own, so the two specs may run side by side.
        CHAT_LINK_PREVIEW_ALLOW_HOSTS: `trang-e2e.localhost:3189,trang-e2e.localhost:${PORT + 1000}`,
      },
    },
    {
      // Started after the first one is up, so the web build is already there.
      command: 'node scripts/start.mjs',
      url: `${shortTokenBaseURL}/api/me`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: 'pipe',
      env: {
        PORT: String(SHORT_TOKEN_PORT),
        DATA_DIR: join(dataDir, 'short-chat-tokens'),
        SEED_DEMO: 'true',
        AUTH_RATE_LIMIT_MAX_PER_IP: '10000',
        API_RATE_LIMIT_MAX_PER_IP: '100000',
        CHAT_TOKEN_TTL_SECONDS: '4',
      },
    },
  ],
});
