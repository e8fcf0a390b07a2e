import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';

/** A session lasts one working day; after that the investor signs in again. */
export const sessionLifetimeSeconds = 8 * 60 * 60;

const issuer = 'everest-properties';
const audience = 'investor-portal';
// One algorithm only: a token that names another (`none`, RS256 with our secret as a public
// key) is refused before its signature is even looked at.
const algorithm = 'HS256';

export interface SessionClaims {
  userId: number;
  /** users.token_version when the token was issued; a newer value in the database ends it. */
  tokenVersion: number;
  /** This session alone, so that signing out ends it and no other (ended_sessions). */
  sessionId: string;
  expiresAt: Date;
}

const claimsSchema = z.object({
  sub: z.string().regex(/^[1-9]\d*$/),
  ver: z.number().int().nonnegative(),
  sid: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
  exp: z.number().int(),
});

// Verified tokens kept so that a signed-in investor's every request does not verify the
// signature again. Only genuine tokens enter (a stranger cannot fill it), each until its expiry.
const maxVerified = 10_000;

/** Signs and verifies session tokens with the server's secret (config.jwtSecret). */
export class SessionTokens {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, SessionClaims>();

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A token for a new session of the user (a session id of 128 random bits). */
  issue({ userId, tokenVersion }: Pick<SessionClaims, 'userId' | 'tokenVersion'>, now = Date.now()): Promise<string> {
    const issuedAt = Math.floor(now / 1000);
    return new SignJWT({ ver: tokenVersion, sid: randomBytes(16).toString('base64url') })
      .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + sessionLifetimeSeconds)
      .sign(this.key);
  }

  /** The claims of a genuine, unexpired token; null for anything else. */
  async verify(token: string, now = Date.now()): Promise<SessionClaims | null> {
    const known = this.verified.get(token);
    if (known) {
      if (now < known.expiresAt.getTime()) return known;
      this.verified.delete(token);
    }
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [algorithm],
        issuer,
        audience,
        typ: 'JWT',
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: new Date(now),
      });
      const claims = claimsSchema.safeParse(payload);
      if (!claims.success) return null;
      const session: SessionClaims = {
        userId: Number(claims.data.sub),
        tokenVersion: claims.data.ver,
        sessionId: claims.data.sid,
        expiresAt: new Date(claims.data.exp * 1000),
      };
      if (this.verified.size >= maxVerified) this.verified.delete(this.verified.keys().next().value as string);
      this.verified.set(token, session);
      return session;
    } catch (error) {
      // Every jose error means "not a session"; anything else is a bug worth seeing.
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
