// What a failed attempt leads to, by what failed (failures.ts tells which): the sync stopped, the
// portal waited for, the file left for a person, or the file tried again after its own doubling
// pause. Apart from failures.ts, which the portal's client uses too, so that what a failure means
// does not depend on the engine's context.

import { retryDelayMs } from './backoff';
import type { SyncContext } from './context';
import { isRefusal, isSignInRefusal, isUnreachable, messageOf, signInRefusedSentence } from './failures';

/** What the engine must do after a failed attempt is recorded: stop, wait for the portal, or nothing more. */
export type AfterFailure = { kind: 'stop'; reason: string } | { kind: 'portal-away' } | null;

/**
 * Records a failed attempt (`relative` '.': the sync's own call). A refused sign-in stops the
 * sync at once; the portal out of reach is waited out, the file waiting unsent; a refusal of this
 * file waits for a person; anything else is retried with the file's own doubling backoff, said
 * when it first fails and when it is given up.
 */
export function recordFailure(
  ctx: Pick<SyncContext, 'ledger' | 'maxAttempts' | 'backoff' | 'setState' | 'emit'>,
  relative: string,
  error: unknown,
  attempts: number,
): AfterFailure {
  const entry = relative === '.' ? undefined : ctx.ledger.get(relative);
  if (isSignInRefusal(error)) {
    if (entry) ctx.ledger.update(relative, { state: 'waiting' });
    return { kind: 'stop', reason: signInRefusedSentence(error) };
  }
  if (isUnreachable(error)) {
    if (entry) ctx.ledger.update(relative, { state: 'waiting', lastError: `Waiting for the portal: ${messageOf(error)}`, nextRetryAt: null });
    return { kind: 'portal-away' };
  }
  if (!entry) {
    ctx.emit({ path: relative, state: 'failed', message: messageOf(error) });
    return null;
  }
  if (isRefusal(error)) {
    ctx.setState(relative, { state: 'needs-attention', lastError: error.message, nextRetryAt: null }, `Refused by the portal: ${error.message}`);
    return null;
  }
  const message = messageOf(error);
  const delay = retryDelayMs(attempts, ctx.backoff);
  const gaveUp = attempts >= ctx.maxAttempts;
  const again = entry.lastError === message && attempts > 1;
  const change = { state: 'failed' as const, lastError: message, nextRetryAt: gaveUp ? null : Date.now() + delay };
  if (again && !gaveUp) {
    // The same failure again: written down, not said again.
    ctx.ledger.update(relative, change);
    return null;
  }
  ctx.setState(
    relative,
    change,
    gaveUp ? `Gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}: ${message}` : `Failed (attempt ${attempts}): ${message} Retrying with growing pauses.`,
  );
  return null;
}
