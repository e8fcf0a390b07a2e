/**
 * A new Idempotency-Key for one submission of a single upload: the form keeps it
 * until what it would send changes or the upload succeeds, so that pressing Upload again after a
 * lost answer sends the same key and the server answers the first result instead of publishing
 * (and e-mailing) a second copy.
 */
export function newIdempotencyKey(): string {
  // randomUUID needs a secure context; a portal opened over plain http on a LAN still works.
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * The key of the submission under way: made at the first submit, kept for a retry, dropped when
 * the form changes or the upload went through.
 */
export class SubmissionKey {
  private key: string | null = null;

  /** The key to send now: the kept one on a retry, a new one otherwise. */
  current(): string {
    this.key ??= newIdempotencyKey();
    return this.key;
  }

  /** The form changed, or the upload went through: the next submit is a new one. */
  reset(): void {
    this.key = null;
  }
}
