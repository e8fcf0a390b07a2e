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
}

const claimsSchema = z.object({
  sub: z.string().regex(/^[1-9]\d*$/),
  ver: z.number().int().nonnegative(),
});

/** Signs and verifies session tokens with the server's secret (config.jwtSecret). */
export class SessionTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  issue({ userId, tokenVersion }: SessionClaims, now = Date.now()): Promise<string> {
    const issuedAt = Math.floor(now / 1000);
    return new SignJWT({ ver: tokenVersion })
      .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + sessionLifetimeSeconds)
      .sign(this.key);
  }

  /** The claims of a genuine, unexpired token; null for anything else. */
  async verify(token: string): Promise<SessionClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [algorithm],
        issuer,
        audience,
        typ: 'JWT',
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const claims = claimsSchema.safeParse(payload);
      return claims.success ? { userId: Number(claims.data.sub), tokenVersion: claims.data.ver } : null;
    } catch (error) {
      // Every jose error means "not a session"; anything else is a bug worth seeing.
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
