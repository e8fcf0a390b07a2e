import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

// EVEREST_E2E_PORT lets a second run (or a dev server on 4310) share the machine: the embedded
// PostgreSQL already takes a free port of its own.
const port = Number(process.env.EVEREST_E2E_PORT ?? 4310);
// localhost rather than 127.0.0.1: WebAuthn refuses an IP address as the relying party, and the
// server takes the passkeys' site from PUBLIC_URL (portal-passkeys.spec.ts). The health check
// stays on 127.0.0.1, which the server listens on whatever localhost resolves to first.
const baseURL = `http://localhost:${port}`;
// The local geocoder the app server asks for Get Coordinates (server/test/stub-geocoder.ts):
// anything containing "Not Found" finds nothing, any other address fixed coordinates.
const geocoderPort = Number(process.env.EVEREST_E2E_GEOCODER_PORT ?? port + 1);

// A fresh data folder per run. The embedded PostgreSQL runs as the `postgres` OS user, which
// must be able to traverse every parent folder: the OS temp dir is, and 755 opens this one.
// Workers load this file again and inherit the environment, so only the first load creates it.
function freshDataDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'everest-e2e-'));
  chmodSync(dir, 0o755);
  return dir;
}
const dataDir = (process.env.EVEREST_E2E_DATA_DIR ??= freshDataDir());

// `pnpm start`, with the server exec'd by the Node that runs this file (npm's `node` is a shell
// that waits for the real one): see webServer below.
const node = process.execPath;
const startServer = `${node} --import tsx server/scripts/build.ts --then-start web server && cd server && exec ${node} --enable-source-maps dist/cli.js start`;

// Browsers cannot be downloaded on these machines; Debian's is used where present. Its headless
// shell (the package chromium-headless-shell, .ci/setup) is the Chromium without the browser's
// window machinery that Playwright's own headless runs use: on admin-users and portal-documents
// it cost 92 CPU-seconds against the full browser's 138, the same 22 tests passing.
const systemChromium = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) => existsSync(path));

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: true,
  // A browser per CPU, at most 4, against the one server (EVEREST_E2E_WORKERS says otherwise). On
  // these 2 CPUs two workers took the suite from 11.5 to 8.1 min at a load of 6-10.
  workers: Number(process.env.EVEREST_E2E_WORKERS ?? Math.min(availableParallelism(), 4)),
  forbidOnly: !!process.env.CI,
  retries: 0,
  reporter: process.env.CI ? 'line' : 'list',
  use: {
    baseURL,
    // A failed test keeps its trace (each action with its log, the locators' waits, console and
    // network) and a screenshot of where it failed, but neither a screencast nor the page's DOM at
    // each step: every test records the trace and almost all pass. The screencast's frames cost
    // Chromium a third of the suite's time on these 2 CPUs; `--trace on` records everything.
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    launchOptions: {
      ...(systemChromium ? { executablePath: systemChromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        // Renderers started by the browser itself, which waits for them, rather than by a zygote
        // that leaves them to init; and no crash handler, which detaches itself the same way:
        // so that their CPU time counts to the suite's (server/scripts/test.ts).
        '--no-zygote',
        '--disable-breakpad',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      // exec'd, and stopped by SIGTERM, as the app server below.
      command: `exec ${node} --import tsx test/stub-geocoder.ts`,
      cwd: '../server',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      port: geocoderPort,
      timeout: 60_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: { PORT: String(geocoderPort) },
    },
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
      cwd: '..',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 30_000 },
      url: `http://127.0.0.1:${port}/api/health`,
      // A build under load takes minutes.
      timeout: 360_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(port),
        DATA_DIR: dataDir,
        PUBLIC_URL: baseURL,
        // Lets a test be a visitor of its own address (contact.spec.ts), as behind a proxy.
        TRUST_PROXY: 'true',
        GEOCODER_URL: `http://127.0.0.1:${geocoderPort}/search`,
        // One JSON line per request would bury the test output; warnings and errors still show.
        LOG_LEVEL: 'warn',
      },
    },
  ],
});
