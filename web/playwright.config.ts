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

// Browsers cannot be downloaded on these machines; Debian's Chromium is used where present.
const systemChromium = '/usr/bin/chromium';

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
    // A failed test keeps its trace, with the page's DOM at each step but no screencast: the
    // screencast's frames cost Chromium a third of the suite's time on these 2 CPUs.
    trace: { mode: 'retain-on-failure', screenshots: false },
    launchOptions: {
      ...(existsSync(systemChromium) ? { executablePath: systemChromium } : {}),
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    {
      command: 'pnpm --filter @everest/server exec tsx test/stub-geocoder.ts',
      cwd: '..',
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
      command: 'pnpm start',
      cwd: '..',
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
