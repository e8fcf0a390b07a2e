import { z } from 'zod';
import { timestamp } from './fields';

// Signed-in sessions: Manage Profile lists the account's sessions and ends the
// others, as GitHub and Google accounts do. A session's id here is its own random name in the
// list, never its token nor the token's session id.

/** How a session is named in the list and in `end`: 22 characters of base64url. */
export const sessionPublicId = z
  .string({ error: 'Please choose a session.' })
  .regex(/^[A-Za-z0-9_-]{22}$/, 'Please choose a session.');

/** One live session of the caller's account. */
export const signedInSession = z.object({
  id: sessionPublicId,
  /** A short readable name from its browser: 'Chrome on Windows', 'Safari on iPhone', 'Everest desktop app'. */
  device: z.string(),
  /** The client address it was last used from (behind a proxy, as TRUST_PROXY reads it). */
  address: z.string(),
  /** When it signed in, or when this server first saw it. */
  firstSeenAt: timestamp,
  /** Its last request, to the minute. */
  lastUsedAt: timestamp,
  /** The session of this very request. */
  current: z.boolean(),
});
export type SignedInSession = z.infer<typeof signedInSession>;

/** GET /api/investor/sessions: the caller's live sessions, most recently used first. */
export const sessionsAnswer = z.object({ sessions: z.array(signedInSession) });
export type SessionsAnswer = z.infer<typeof sessionsAnswer>;

/** POST /api/investor/sessions/end: one other session of the caller. */
export const endSessionBody = z.object({ sessionId: sessionPublicId });
export type EndSessionBody = z.infer<typeof endSessionBody>;

/** What ending sessions did: a sentence, and how many ended. */
export const endSessionsAnswer = z.object({
  message: z.string(),
  endedCount: z.number().int().nonnegative(),
});
export type EndSessionsAnswer = z.infer<typeof endSessionsAnswer>;
