/**
 * `pnpm --filter @everest/web bench`: mobile Lighthouse on the public pages of the built app,
 * served by the real server (embedded PostgreSQL, demo data) with map tiles from a local tile
 * server (TILE_URL), plus the gzip JavaScript that / loads. Each page is measured three times and
 * the median of each score and of CLS is held against the bar below; then every property is given
 * a camera-sized JPEG photo through the administrators' upload and the pages that show photos are
 * measured again. Every set of pages is measured at two CPU slowdowns calibrated to this host
 * right before (see benchmark-index.ts): a mid-range phone and DevTools' low tier. A missed bar
 * is printed as NOT met and makes the run exit with 1.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, get, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { z } from 'zod';
import { adminPropertiesAnswer, loginAnswer, routes, type AdminProperty } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { calibrateCpuSlowdown, lowTierIndex, midTierIndex, type Calibration } from './benchmark-index';
import { startProductServer } from './product-server';

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lighthouseBin = path.join(webDir, 'node_modules', '.bin', 'lighthouse');
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const chromeFlags = '--headless --no-sandbox --disable-gpu';

const allPages = ['/', '/properties', '/property-map', '/management-team', '/significant-transactions'];
/** The pages that show property photos: measured again once the properties have camera photos. */
const allPhotoPages = ['/', '/properties', '/property-map'];
// LIGHTHOUSE_PAGES=/properties,/property-map measures only those (while working on one page).
const onlyPages = z
  .string()
  .transform((list) => list.split(','))
  .pipe(z.array(z.enum(allPages)))
  .optional()
  .parse(process.env.LIGHTHOUSE_PAGES);
const pages = onlyPages ?? allPages;
const photoPages = allPhotoPages.filter((page) => pages.includes(page));

// The bar, read on the median of the runs of each page: performance 99 on every public page (and
// /property-map with camera photos), the other scores full, no layout shift at all.
const targets = {
  performance: 99,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
} as const;
const maxCls = 0;
type Category = keyof typeof targets;
const categories = Object.keys(targets).filter((c): c is Category => c in targets);
// The most JavaScript the home page may load, gzip (145.5 KB in 18 scripts when the bar was set):
// what a phone on a slow network downloads and parses before the first screen works.
const maxHomeGzipJsBytes = 100 * 1024;

// LIGHTHOUSE_REPORTS=dir keeps every run's whole JSON report there (its LCP element and phases,
// its main-thread tasks), to open when a page misses the bar.
const reportsDir = process.env.LIGHTHOUSE_REPORTS;
let reportsKept = 0;

// Runs per page (LIGHTHOUSE_RUNS, default 3): the scores of one run swing by several points
// with the machine's load, since simulated throttling scales the main-thread time it observes.
// The run with the median performance score is the one reported.
const runsPerPage = z.coerce.number().int().min(1).max(15).parse(process.env.LIGHTHOUSE_RUNS ?? 3);

// Lighthouse's mobile preset slows the CPU a fixed 4 times, so its scores move with the host
// (84 to 99 on the same code, on a day this host was twice as slow). The bench instead slows it
// by what brings this host's benchmark index to each target below, as DevTools calibrates its
// throttling; the bar holds at both.
const calibrationTargets = [
  { name: 'mid-tier', index: midTierIndex },
  { name: 'low-tier', index: lowTierIndex },
] as const;
type CalibrationTarget = (typeof calibrationTargets)[number];

// The few parts of Lighthouse's JSON report that this bench reads, checked rather than trusted.
const reportSchema = z.object({
  environment: z.object({ benchmarkIndex: z.number() }),
  runWarnings: z.array(z.string()),
  categories: z.record(
    z.string(),
    z.object({
      score: z.number().nullable(),
      auditRefs: z.array(z.object({ id: z.string(), weight: z.number() })),
    }),
  ),
  audits: z.record(
    z.string(),
    z.object({
      score: z.number().nullable(),
      numericValue: z.number().optional(),
      title: z.string(),
      displayValue: z.string().optional(),
      details: z.unknown().optional(),
    }),
  ),
});
type Report = z.infer<typeof reportSchema>;

const networkRequestsSchema = z.object({
  items: z.array(
    z.object({
      url: z.string(),
      resourceType: z.string().optional(),
      transferSize: z.number().optional(),
    }),
  ),
});

/**
 * A tile server on this machine (TILE_URL), so that the map page is measured with its tiles and
 * without the network: one plain 256 px tile for every address, and a 512 px one for the `@2x`
 * addresses that Leaflet asks for on a high-density screen when the template has `{r}`, as the
 * retina-capable tile services' templates do (a phone's 256 px tile would be scaled up).
 */
async function startTileServer(): Promise<{ tileUrl: string; server: Server }> {
  const tile = (size: number) =>
    sharp({ create: { width: size, height: size, channels: 3, background: { r: 221, g: 230, b: 213 } } })
      .png()
      .toBuffer();
  const [normal, retina] = await Promise.all([tile(256), tile(512)]);
  const server = createHttpServer((request, response) => {
    response.writeHead(200, { 'Content-Type': 'image/png', 'Cache-Control': 'public, max-age=86400' });
    response.end(request.url?.includes('@2x') ? retina : normal);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { tileUrl: `http://127.0.0.1:${port}/{z}/{x}/{y}{r}.png`, server };
}

// Headless Chrome now and then fails to record the trace of a load (NO_NAVSTART, about one
// load in five here); another run of the same page is the usual remedy.
async function runLighthouse(url: string, cpuSlowdown: number, attempts = 3): Promise<Report> {
  try {
    return await runLighthouseOnce(url, cpuSlowdown);
  } catch (error) {
    if (attempts <= 1) throw error;
    console.log(`  (Lighthouse failed on ${url}; trying again)`);
    return runLighthouse(url, cpuSlowdown, attempts - 1);
  }
}

async function runLighthouseOnce(url: string, cpuSlowdown: number): Promise<Report> {
  const { stdout } = await promisify(execFile)(
    lighthouseBin,
    [
      url,
      '--quiet',
      '--output=json',
      '--output-path=stdout',
      `--chrome-flags=${chromeFlags}`,
      `--only-categories=${categories.join(',')}`,
      `--throttling.cpuSlowdownMultiplier=${cpuSlowdown}`,
    ],
    { env: { ...process.env, CHROME_PATH: chromePath }, maxBuffer: 256 * 1024 * 1024 },
  );
  if (reportsDir) {
    mkdirSync(reportsDir, { recursive: true });
    reportsKept += 1;
    const name = `${String(reportsKept).padStart(2, '0')}-${cpuSlowdown}x${new URL(url).pathname.replaceAll('/', '_')}.json`;
    writeFileSync(path.join(reportsDir, name), stdout);
  }
  return reportSchema.parse(JSON.parse(stdout));
}

function scoreOf(report: Report, category: Category): number | null {
  const score = report.categories[category]?.score;
  return score === null || score === undefined ? null : Math.round(score * 100);
}

/** The weighted audits that cost a category points: what to look at when a target is missed. */
function lostAudits(report: Report, category: Category): string[] {
  const refs = report.categories[category]?.auditRefs ?? [];
  return refs
    .filter((ref) => ref.weight > 0)
    .flatMap((ref) => {
      const audit = report.audits[ref.id];
      if (!audit || audit.score === null || audit.score >= 1) return [];
      const value = audit.displayValue ? ` (${audit.displayValue})` : '';
      return [`${ref.id}: ${audit.title}${value}`];
    });
}

function scriptUrls(report: Report): { url: string; transferSize: number }[] {
  const parsed = networkRequestsSchema.safeParse(report.audits['network-requests']?.details);
  if (!parsed.success) return [];
  return parsed.data.items
    .filter((item) => item.resourceType === 'Script')
    .map((item) => ({ url: item.url, transferSize: item.transferSize ?? 0 }));
}

/** Bytes on the wire of one script fetched with Accept-Encoding: gzip (undecoded). */
function gzipBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (response) => {
      let bytes = 0;
      response.on('data', (chunk: Buffer) => (bytes += chunk.length));
      response.on('end', () => resolve(bytes));
      response.on('error', reject);
    }).on('error', reject);
  });
}

/**
 * Asks the server once for each page, the files its HTML names and the property list, before
 * anything is measured: a server that has just started compiles its code (JIT) and fills its
 * caches on the first requests, CPU that would compete with the browser on this machine and
 * that a server in service has long spent.
 */
async function warmUp(baseUrl: string): Promise<void> {
  for (const page of pages) {
    const html = await (await fetch(`${baseUrl}${page}`)).text();
    const files = [...html.matchAll(/(?:href|src)="(\/[^"]+)"/g)].map((match) => match[1] ?? '');
    await Promise.all(
      [...files, '/api/properties'].map(async (file) => {
        const response = await fetch(`${baseUrl}${file}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
        await response.arrayBuffer();
      }),
    );
  }
}

/**
 * A camera's photo as a phone takes it: 4032 × 3024, smooth shapes with sensor grain, a JPEG of
 * 2 to 5 MB. Made here from noise (never committed): one base picture, then each property's own
 * colours and quality, so that no two files are the same (the store keeps files by content).
 */
async function cameraPhotos(count: number): Promise<Buffer[]> {
  const width = 4032;
  const height = 3024;
  const coarse = await sharp({ create: { width: width / 16, height: height / 16, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .png()
    .toBuffer();
  const base = await sharp(coarse).resize(width, height, { kernel: 'cubic' }).raw().toBuffer();
  const grain = await sharp({ create: { width, height, channels: 3, background: { r: 0, g: 0, b: 0 }, noise: { type: 'gaussian', mean: 128, sigma: 8 } } })
    .raw()
    .toBuffer();
  for (let i = 0; i < base.length; i += 1) base[i] = Math.max(0, Math.min(255, (base[i] ?? 0) + (grain[i] ?? 128) - 128));
  const photos: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    photos.push(
      await sharp(base, { raw: { width, height, channels: 3 } })
        .modulate({ hue: (i * 37) % 360, brightness: 0.9 + (i % 5) * 0.05 })
        .jpeg({ quality: 82 + (i % 9) })
        .toBuffer(),
    );
  }
  return photos;
}

/**
 * Gives every property of the public pages a photo through update-property, as an administrator's upload in the
 * panel does (the same WebP copies at 480, 720, 960 and 1600 px). Returns the sizes uploaded.
 */
async function uploadPhotos(baseUrl: string): Promise<number[]> {
  const login = await fetch(`${baseUrl}${routes.login.path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'admin@example.com', password: demoPassword }),
  });
  const { token } = loginAnswer.parse(await login.json());
  const authorization = `Bearer ${token}`;
  const list = await fetch(`${baseUrl}${routes.adminAllProperties.path}`, { headers: { authorization } });
  // Every property the public pages show that the panel can save: update-property asks for
  // coordinates, and three of the demo's active properties have none (they are off the map).
  const shown = adminPropertiesAnswer.parse(await list.json()).properties.filter((p) => p.status !== 'inactive');
  const properties = shown.filter((p) => p.latitude !== null && p.longitude !== null);
  if (properties.length < shown.length) {
    const names = shown.filter((p) => !properties.includes(p)).map((p) => p.name);
    console.log(`\nKept their demo drawing (no coordinates, which a save needs): ${names.join(', ')}`);
  }
  const photos = await cameraPhotos(properties.length);
  for (const [i, property] of properties.entries()) {
    const photo = photos[i];
    if (!photo) continue;
    const form = new FormData();
    for (const [key, value] of Object.entries(saveFields(property))) {
      if (value !== null && value !== undefined) form.set(key, String(value));
    }
    form.set('image', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `IMG_${1000 + i}.JPG`);
    const response = await fetch(`${baseUrl}${routes.updateProperty.path}`, { method: 'POST', headers: { authorization }, body: form });
    if (!response.ok) throw new Error(`Uploading the photo of ${property.name} answered ${response.status}: ${await response.text()}`);
  }
  return photos.map((photo) => photo.length);
}

/** update-property's fields of a property as the panel holds it, unchanged. */
function saveFields(p: AdminProperty) {
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    address: p.address,
    city: p.city,
    state: p.state,
    zipCode: p.zipCode,
    phone: p.phone,
    website: p.website,
    status: p.status,
    latitude: p.latitude,
    longitude: p.longitude,
    investorRelations: p.investorRelations,
  };
}

/** The middle item by `value` (the lower of the two middle ones for an even count). */
function median<T>(items: readonly T[], value: (item: T) => number): T | undefined {
  return [...items].sort((a, b) => value(a) - value(b))[Math.floor((items.length - 1) / 2)];
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const verdict = (met: boolean) => (met ? 'met' : 'NOT met');
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');
const clsOf = (report: Report) => report.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN;

/** A page's medians at one calibration, for the summary. */
interface PageFigures {
  label: string;
  page: string;
  target: CalibrationTarget;
  calibration: Calibration;
  performance: number;
  accessibility: number;
  cls: number;
  tbtMs: number;
}
const figures: PageFigures[] = [];

/**
 * Measures each page at each calibration: calibrates the CPU slowdown to the target right before
 * the page's runs (the host's index moves with the load of this shared machine from one minute
 * to the next), runs it `runsPerPage` times at that slowdown and prints the median of each score
 * and of CLS against the bar, the runs' figures and the load; returns the misses
 * ('low-tier 2.8x, demo photos: /properties performance 93').
 */
async function measurePages(baseUrl: string, list: readonly string[], label: string): Promise<string[]> {
  const misses: string[] = [];
  console.log(`\n== ${label}`);
  for (const page of list) for (const target of calibrationTargets) misses.push(...(await measurePage(baseUrl, page, label, target)));
  return misses;
}

async function measurePage(baseUrl: string, page: string, label: string, target: CalibrationTarget): Promise<string[]> {
  const misses: string[] = [];
  const loadBeforeCalibration = load();
  const calibration = await calibrateCpuSlowdown(target.index);
  const cpuSlowdown = calibration.rate;
  const where = `${target.name} ${cpuSlowdown}x, ${label}`;
  const tooSlow = calibration.hostIndex < target.index ? ': the host is slower than the target, measured unthrottled' : '';
  console.log(
    `\n${page} at ${target.name}: host benchmark index ${Math.round(calibration.hostIndex)}, CPU slowdown ${cpuSlowdown}x gives ${Math.round(calibration.throttledIndex)} (target ${target.index})${tooSlow}; load average ${loadBeforeCalibration}`,
  );
  const started = Date.now();
  const loadBefore = load();
  const reports: Report[] = [];
  for (let run = 0; run < runsPerPage; run += 1) reports.push(await runLighthouse(`${baseUrl}${page}`, cpuSlowdown));
  // Lighthouse measures the host's index again in each run: divided by the slowdown, it is the
  // index that run stood for, which tells how far the load moved since the calibration.
  const indexes = reports.map((r) => `${Math.round(r.environment.benchmarkIndex)} (${Math.round(r.environment.benchmarkIndex / cpuSlowdown)} throttled)`).join(', ');
  for (const r of reports) for (const warning of r.runWarnings) warnings.add(warning);
  console.log(
    `  ${runsPerPage} runs in ${((Date.now() - started) / 1000).toFixed(0)} s; load average ${loadBefore} before, ${load()} after; host benchmark index in Lighthouse's runs ${indexes}`,
  );
  const medians = new Map<Category, number>();
  for (const category of categories) {
    const scores = reports.map((r) => scoreOf(r, category) ?? 0);
    const score = median(scores, (x) => x) ?? 0;
    medians.set(category, score);
    const bar = targets[category];
    const met = score >= bar;
    if (!met) misses.push(`${where}: ${page} ${category} ${score}`);
    const goal = bar === 100 ? '= 100' : `>= ${bar}`;
    console.log(
      `  ${category.padEnd(15)} ${String(score).padStart(3)}   target ${goal.padEnd(6)} ${verdict(met).padEnd(8)} runs ${scores.join(', ')}`,
    );
    // What cost the points, from the run whose score is the median.
    const medianReport = reports.find((r) => scoreOf(r, category) === score);
    if (medianReport && score < 100) for (const line of lostAudits(medianReport, category)) console.log(`      - ${line}`);
  }
  const clsRuns = reports.map(clsOf);
  const cls = median(clsRuns, (x) => x) ?? Number.NaN;
  const clsMet = cls <= maxCls;
  if (!clsMet) misses.push(`${where}: ${page} CLS ${cls.toFixed(3)}`);
  console.log(`  ${'CLS'.padEnd(15)} ${cls.toFixed(3)} target = 0     ${verdict(clsMet).padEnd(8)} runs ${clsRuns.map((c) => c.toFixed(3)).join(', ')}`);
  const medianRun = median(reports, (r) => scoreOf(r, 'performance') ?? 0);
  figures.push({
    label,
    page,
    target,
    calibration,
    performance: medians.get('performance') ?? 0,
    accessibility: medians.get('accessibility') ?? 0,
    cls,
    tbtMs: median(reports.map((r) => r.audits['total-blocking-time']?.numericValue ?? Number.NaN), (x) => x) ?? Number.NaN,
  });
  if (medianRun) {
    const metric = (id: string) => medianRun.audits[id]?.displayValue ?? '-';
    console.log(
      `  metrics of the median run: FCP ${metric('first-contentful-paint')}, LCP ${metric('largest-contentful-paint')}, TBT ${metric('total-blocking-time')}, SI ${metric('speed-index')}`,
    );
  }

  if (page === '/' && medianRun) {
    const scripts = scriptUrls(medianRun);
    const transferred = scripts.reduce((sum, s) => sum + s.transferSize, 0);
    const gzip = (await Promise.all(scripts.map((s) => gzipBytes(s.url)))).reduce((a, b) => a + b, 0);
    const met = gzip <= maxHomeGzipJsBytes;
    if (!met) misses.push(`${where}: / JavaScript ${kb(gzip)} gzip`);
    console.log(
      `  JavaScript       ${kb(gzip)} gzip in ${scripts.length} scripts (${kb(transferred)} as Chrome received it)   target <= ${kb(maxHomeGzipJsBytes)}   ${verdict(met)}`,
    );
  }
  return misses;
}

/**
 * Each page's medians at both calibrations side by side, beside the bar: performance, TBT,
 * accessibility, CLS, and the slowdown with the index it gave (host index at the calibration).
 */
function printSummary(): void {
  const width = 44;
  const cell = (f: PageFigures | undefined) => {
    if (!f) return '-'.padEnd(width);
    const { hostIndex, rate, throttledIndex } = f.calibration;
    const scores = `${String(f.performance).padStart(3)} ${`${Math.round(f.tbtMs)} ms`.padStart(7)} ${String(f.accessibility).padStart(3)} ${f.cls.toFixed(3)}`;
    return `${scores}  ${rate}x: ${Math.round(hostIndex)}->${Math.round(throttledIndex)}`.padEnd(width);
  };
  console.log(
    `\nSummary (median of ${runsPerPage} runs): performance, TBT, accessibility, CLS, CPU slowdown: host index->throttled index.\nBar: performance >= ${targets.performance}, accessibility 100, CLS 0, at both.`,
  );
  console.log(`${''.padEnd(30)}${calibrationTargets.map((t) => `${t.name} (index ${t.index})`.padEnd(width)).join('')}`);
  for (const label of new Set(figures.map((f) => f.label))) {
    console.log(label);
    for (const page of new Set(figures.filter((f) => f.label === label).map((f) => f.page))) {
      const cells = calibrationTargets.map((t) => cell(figures.find((f) => f.label === label && f.page === page && f.target === t)));
      console.log(`  ${page.padEnd(28)}${cells.join('')}`);
    }
  }
}

const warnings = new Set<string>();

async function main() {
  if (!existsSync(path.join(webDir, 'dist', 'index.html'))) {
    throw new Error('web/dist is missing: run `pnpm --filter @everest/web build` first.');
  }
  if (!existsSync(chromePath)) throw new Error(`No Chrome at ${chromePath}; set CHROME_PATH.`);

  console.log(
    `Lighthouse (mobile, simulated throttling, CPU slowdown calibrated to benchmark index ${calibrationTargets.map((t) => `${t.index} (${t.name})`).join(' and ')}) against the real server, median of ${runsPerPage} runs per page; load average ${load()} on ${os.cpus().length} CPUs`,
  );
  const tiles = await startTileServer();
  const server = await startProductServer({ command: ['--filter', '@everest/server', 'start'], env: { TILE_URL: tiles.tileUrl } });
  const misses: string[] = [];
  try {
    await warmUp(server.url);
    misses.push(...(await measurePages(server.url, pages, 'demo photos (small SVG drawings)')));
    const started = Date.now();
    const sizes = await uploadPhotos(server.url);
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    console.log(
      `\n${sizes.length} public properties given a 4032 × 3024 camera JPEG of ${mb(Math.min(...sizes))} to ${mb(Math.max(...sizes))} MB through update-property (${((Date.now() - started) / 1000).toFixed(0)} s)`,
    );
    await warmUp(server.url);
    misses.push(...(await measurePages(server.url, photoPages, 'camera photos (2 to 5 MB JPEG uploads)')));
  } finally {
    await server.stop();
    tiles.server.close();
  }
  for (const warning of warnings) console.log(`\nLighthouse warned: ${warning.replace(/\s+/g, ' ')}`);
  printSummary();
  console.log(`\nLoad average at the end: ${load()} (on ${os.cpus().length} CPUs)`);
  if (misses.length > 0) {
    console.log(`\nLIGHTHOUSE BAR NOT MET (${misses.length}):\n${misses.map((miss) => `  - ${miss}`).join('\n')}`);
    process.exitCode = 1;
  } else {
    console.log('\nLighthouse bar met on every page, with both kinds of photo.');
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
