/**
 * The host's Lighthouse BenchmarkIndex, and the CPU slowdown that brings it to a target, measured
 * the way Chrome DevTools calibrates its CPU throttling (its CalibrationController): Lighthouse's
 * own benchmark page function run in headless Chromium, throttled through CDP
 * `Emulation.setCPUThrottlingRate`, the rate bisected until the throttled index is within 10 of
 * the target. Lighthouse scores move with the host (a host twice as slow loses points on the same
 * code at the same multiplier); a multiplier calibrated to a throttled index does not.
 */
import { chromium, type CDPSession } from '@playwright/test';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';

/** The throttled index of the host that gave the bench's first figures at the preset's 4x (index ~2,400). */
export const midTierIndex = 600;
/** DevTools' low tier ("Moto G4 Power 2022"). */
export const lowTierIndex = 264;

export interface Calibration {
  /** The host's index, unthrottled. */
  hostIndex: number;
  /** The CPU slowdown found for the target. */
  rate: number;
  /** The index measured at that slowdown. */
  throttledIndex: number;
}

/**
 * One run of Lighthouse's computeBenchmarkIndex (about a second) in the page, as Lighthouse
 * evaluates it: with its esbuild helper, in case the function was bundled with `__name` calls.
 */
async function benchmark(cdp: CDPSession): Promise<number> {
  const expression = `(() => { ${pageFunctions.esbuildFunctionWrapperString}; return (${pageFunctions.computeBenchmarkIndex.toString()})(); })()`;
  const { result, exceptionDetails } = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
  const value: unknown = result.value;
  if (exceptionDetails || typeof value !== 'number' || !Number.isFinite(value)) {
    throw new Error(`The benchmark gave no index: ${exceptionDetails?.text ?? String(value)}`);
  }
  return value;
}

/** Runs `work` with a blank page of headless Chromium (the browser that Lighthouse drives) and its CDP session. */
async function withBlankPage<T>(work: (cdp: CDPSession) => Promise<T>): Promise<T> {
  const browser = await chromium.launch({ executablePath: chromePath, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    // A first run lets V8 optimise the benchmark's loops, as DevTools does before it measures.
    await benchmark(cdp);
    return await work(cdp);
  } finally {
    await browser.close();
  }
}

/** The median of three runs: one run moves by half with the load of this shared machine. */
async function medianBenchmark(cdp: CDPSession): Promise<number> {
  const runs = [await benchmark(cdp), await benchmark(cdp), await benchmark(cdp)].sort((a, b) => a - b);
  return runs[1] ?? Number.NaN;
}

/** The host's BenchmarkIndex, unthrottled (the median of three runs). */
export async function hostBenchmarkIndex(): Promise<number> {
  return withBlankPage(medianBenchmark);
}

/**
 * The CPU slowdown at which the host's index comes to `target`, bisected as DevTools does:
 * between 1 and 1.5 times host / target, the rate kept to hundredths (what the throttling
 * backend keeps), done once within 10 points or after 8 steps. Each rate's index is the median
 * of three runs, and the rate returned is the one measured closest to the target, since on a
 * busy host a step can land on the wrong side. The host's index is measured again at the end:
 * when the load has moved it by more than a fifth meanwhile, the bisection is done again (up to
 * three times in all).
 */
export async function calibrateCpuSlowdown(target: number): Promise<Calibration> {
  return withBlankPage(async (cdp) => {
    let calibration = await bisect(cdp, target);
    for (let attempt = 1; attempt < 3; attempt += 1) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      const hostIndexAfter = await medianBenchmark(cdp);
      if (Math.abs(hostIndexAfter - calibration.hostIndex) <= calibration.hostIndex / 5) break;
      calibration = await bisect(cdp, target);
    }
    return calibration;
  });
}

async function bisect(cdp: CDPSession, target: number): Promise<Calibration> {
  const measured = new Map<number, number>();
  const indexAt = async (rate: number) => {
    const known = measured.get(rate);
    if (known !== undefined) return known;
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const index = await medianBenchmark(cdp);
    measured.set(rate, index);
    return index;
  };
  const hostIndex = await indexAt(1);
  if (hostIndex < target) return { hostIndex, rate: 1, throttledIndex: hostIndex };
  const hundredths = (rate: number) => Number(rate.toFixed(2));
  let lower = 1;
  let upper = hundredths(Math.max(1.5 * (hostIndex / target), 1.01));
  await indexAt(upper);
  for (let step = 0; step < 8; step += 1) {
    const rate = hundredths((lower + upper) / 2);
    const index = await indexAt(rate);
    if (Math.abs(index - target) < 10) break;
    if (index < target) upper = rate;
    else lower = rate;
  }
  const [rate, throttledIndex] = [...measured].reduce((best, tried) => (Math.abs(tried[1] - target) < Math.abs(best[1] - target) ? tried : best));
  return { hostIndex, rate, throttledIndex };
}
