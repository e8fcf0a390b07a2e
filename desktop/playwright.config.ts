import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// The renderer in Chromium with the test build of the main process (e2e/support/bridge-server.ts)
// on EVEREST_E2E_PORT, and the real server on the next port.
const port = Number(process.env.EVEREST_E2E_PORT ?? 4320);
const serverPort = port + 1;
const baseURL = `http://127.0.0.1:${port}`;
const serverUrl = `http://127.0.0.1:${serverPort}`;

// A fresh data folder per run; the embedded PostgreSQL's user must be able to traverse it.
function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'everest-desktop-e2e-data-'));
  chmodSync(dir, 0o755);
  return dir;
}
const dataDir = (process.env.EVEREST_DESKTOP_E2E_DATA_DIR ??= freshDataDir());

// `pnpm start`, with the server exec'd by the Node that runs this file, as in
// web/playwright.config.ts: see webServer below.
const node = process.execPath;
const startServer = `${node} --import tsx server/scripts/build.ts --then-start web server && cd server && exec ${node} --enable-source-maps dist/cli.js start`;

// Debian's headless shell where present, as in web/playwright.config.ts.
const systemChromium = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));

export default defineConfig({
  testDir: 'e2e',
  // One app, one session: the tests take turns, as one administrator at one window would.
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL,
    // As web/playwright.config.ts: a failed test keeps its actions' log and a screenshot, not the DOM at each step.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(systemChromium ? { executablePath: systemChromium } : {}),
      // As web/playwright.config.ts: no zygote and no crash handler, so every Chromium process is waited for.
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run', '--no-zygote', '--disable-breakpad'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 860 } } }],
  webServer: [
    {
      // The product as `pnpm start` starts it: the web app and the server are built first when
      // their sources changed since their last build (server/scripts/build.ts), so the tests never run
      // against a stale build, and in `pnpm test` (built by its build stage) they start at once.
      //
      // It is `pnpm start` with the server exec'd, and stopped by SIGTERM: the server is then
      // Playwright's own child and stops its PostgreSQL before it exits, each waited for by its
      // parent, so their CPU time counts to the suite's (server/scripts/test.ts). Playwright's
      // default, a SIGKILL to every process of the group, left them to be reaped by init.
      command: startServer,
      cwd: '../',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
      url: `${serverUrl}/api/health`,
      // A build under load takes minutes.
      timeout: 360_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      // One JSON line per request would bury the test output; warnings and errors still show.
      env: { PORT: String(serverPort), DATA_DIR: dataDir, PUBLIC_URL: serverUrl, LOG_LEVEL: 'warn' },
    },
    {
      command: `exec ${node} --import tsx e2e/support/bridge-server.ts`,
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      url: `${baseURL}/index.html`,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { PORT: String(port), SERVER_URL: serverUrl },
    },
  ],
});
