/**
 * Runs `work` on every item, `concurrency` at a time, in order of the list: a bucket answers each
 * file slowly and a disk each fast, and a hundred thousand files one after another add up. The
 * first failure is thrown; the other lanes stop taking new items.
 */
export async function forEachConcurrently<T>(items: readonly T[], concurrency: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const lane = async () => {
    while (!failed && next < items.length) {
      const item = items[next] as T;
      next += 1;
      try {
        await work(item);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

/** How many document files are read and written at once. */
export const fileConcurrency = 4;
