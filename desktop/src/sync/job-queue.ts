// The sync's requests, one job per key (a property document, a manifest's batch, the digest):
// a key already queued or running is not queued twice, and at most `concurrency` run at once,
// so that a folder of hundreds of files never opens hundreds of connections to the portal.

export class JobQueue {
  private readonly queue: string[] = [];
  private readonly jobs = new Map<string, () => Promise<void>>();
  private readonly running = new Set<string>();
  private readonly runningJobs = new Set<Promise<void>>();

  constructor(
    private readonly options: {
      concurrency: number;
      /** Whether jobs may start now (not while the sync is stopped or the portal away). */
      mayStart: () => boolean;
      /** A job threw instead of recording its own failure. */
      onUnexpected: (key: string, error: unknown) => void;
      /** After each job, once it no longer counts as running. */
      afterEach: () => void;
    },
  ) {}

  add(key: string, job: () => Promise<void>): void {
    if (this.jobs.has(key) || this.running.has(key)) return;
    this.queue.push(key);
    this.jobs.set(key, job);
  }

  /** Starts queued jobs, up to the concurrency. */
  pump(): void {
    while (this.options.mayStart() && this.running.size < this.options.concurrency && this.queue.length > 0) {
      const key = this.queue.shift()!;
      const job = this.jobs.get(key)!;
      this.jobs.delete(key);
      this.running.add(key);
      const run = job()
        .catch((error: unknown) => this.options.onUnexpected(key, error))
        .finally(() => {
          this.running.delete(key);
          this.options.afterEach();
        });
      this.runningJobs.add(run);
      void run.finally(() => this.runningJobs.delete(run));
    }
  }

  get queuedCount(): number {
    return this.queue.length;
  }

  get runningCount(): number {
    return this.running.size;
  }

  /** The keys queued, then those running. */
  keys(): string[] {
    return [...this.queue, ...this.running];
  }

  /** Settles once every job running now has. */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.runningJobs]);
  }
}
