// Whether the portal can be reached. While it cannot, nothing is sent and files wait: the outage
// is said once, and the portal is probed with growing pauses (the backoff), so that a server
// being restarted or a network cut is waited out without a storm of requests or of messages.

import { retryDelayMs, type BackoffOptions } from './backoff';
import type { SyncEvent } from './context';
import { messageOf } from './failures';

export class Reachability {
  /** The portal out of reach: since when, how many tries, the next one, and why. */
  private away: { since: number; failures: number; nextAt: number; error: string } | null = null;

  /** `emit`: how the outage and its end are said, once each. */
  constructor(private readonly emit: (event: SyncEvent) => void) {}

  /** Why the portal could not be reached at the last try, or null. */
  get error(): string | null {
    return this.away?.error ?? null;
  }

  get isAway(): boolean {
    return this.away !== null;
  }

  /** A request found the portal out of reach: said when it was reachable until now. */
  lost(failure: unknown, backoff: BackoffOptions, now = Date.now()): void {
    const error = messageOf(failure);
    if (!this.away) {
      this.away = { since: now, failures: 0, nextAt: 0, error };
      this.emit({ path: '.', state: 'portal-away', message: `The portal cannot be reached: ${error} Files wait; the sync tries again with growing pauses.` });
    }
    // Requests failing together count as one try; the next one waits its turn.
    if (now >= this.away.nextAt) {
      this.away.failures += 1;
      this.away.nextAt = now + retryDelayMs(this.away.failures, backoff);
    }
    this.away.error = error;
  }

  /** A request was answered: true (and said) when the portal was away until now. */
  back(now = Date.now()): boolean {
    if (!this.away) return false;
    const seconds = Math.round((now - this.away.since) / 1000);
    this.away = null;
    this.emit({ path: '.', state: 'portal-back', message: `The portal is reachable again (after ${seconds} s): files are being sent.` });
    return true;
  }

  /** While away: whether the next probe is due. */
  probeDue(now = Date.now()): boolean {
    return this.away !== null && now >= this.away.nextAt;
  }

  /** Tried `maxAttempts` times without an answer: given up. */
  gaveUp(maxAttempts: number): boolean {
    return this.away !== null && this.away.failures >= maxAttempts;
  }
}
