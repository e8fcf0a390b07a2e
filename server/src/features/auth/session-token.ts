import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { z } from 'zod';
import { documentLinkTarget, type DocumentLinkTarget } from '@everest/core/contract';

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
  /**
   * The session was opened with a second step (or the session itself proved one when turning it
   * on). A password-only session never gains what needs a second step, whatever the account
   * sets up later.
   */
  secondStep: boolean;
}

const claimsSchema = z.object({
  sub: z.string().regex(/^[1-9]\d*$/),
  ver: z.number().int().nonnegative(),
  sid: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
  exp: z.number().int(),
  // Absent from tokens issued before the claim existed: those count as password-only.
  mfa: z.boolean().default(false),
});

// Verified tokens kept so that a signed-in investor's every request does not verify the
// signature again (an HMAC and jose's parsing were the larger part of a cached list's session
// check), and so that the hot answers can check a session without a promise (`known`). Only
// genuine tokens enter (a stranger cannot fill it), each until its expiry; what may change
// meanwhile (the account, its token version, a sign-out) is in the session record, checked on
// every request.
const maxVerified = 10_000;

/** Signs and verifies session tokens with the server's secret (config.jwtSecret). */
export class SessionTokens {
  private readonly key: Uint8Array;
  private readonly verified = new Map<string, SessionClaims>();

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** A token for a new session of the user (a session id of 128 random bits). */
  issue({ userId, tokenVersion, secondStep }: Pick<SessionClaims, 'userId' | 'tokenVersion' | 'secondStep'>, now = Date.now()): Promise<string> {
    const issuedAt = Math.floor(now / 1000);
    return new SignJWT({ ver: tokenVersion, sid: randomBytes(16).toString('base64url'), mfa: secondStep })
      .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
      .setSubject(String(userId))
      .setIssuer(issuer)
      .setAudience(audience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + sessionLifetimeSeconds)
      .sign(this.key);
  }

  /**
   * The claims of a token verified before and still unexpired, without a promise; undefined for
   * any other (`verify` decides those).
   */
  known(token: string, now = Date.now()): SessionClaims | undefined {
    const known = this.verified.get(token);
    return known && now < known.expiresAt.getTime() ? known : undefined;
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
        secondStep: claims.data.mfa,
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

/** A document link lasts long enough for a viewer to fetch the file, and no longer. */
export const documentLinkLifetimeSeconds = 5 * 60;

// Its own audience and type: a document link never passes as a session, nor a session as a link.
const documentLinkAudience = 'document-link';
const documentLinkType = 'document-link+jwt';

/** The one document a link opens, as the download's address names it (`type=user` for personal). */
export interface LinkedDocument {
  type: DocumentLinkTarget;
  id: number;
}

export interface DocumentLinkClaims extends SessionClaims {
  document: LinkedDocument;
}

const documentLinkClaimsSchema = claimsSchema.extend({
  doc: z.object({ type: documentLinkTarget, id: z.number().int().positive() }).strict(),
});

/**
 * Signs and verifies the short-lived tokens of the portal's preview and download addresses:
 * one document, one user, the session that asked for it (so signing out or a new password
 * ends its links too), a few minutes. An address copied from history opens nothing else.
 */
export class DocumentLinkTokens {
  private readonly key: Uint8Array;

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  issue(session: Omit<SessionClaims, 'expiresAt'>, document: LinkedDocument, now = Date.now()): Promise<{ token: string; expiresAt: Date }> {
    const issuedAt = Math.floor(now / 1000);
    const expiresAt = issuedAt + documentLinkLifetimeSeconds;
    return new SignJWT({ ver: session.tokenVersion, sid: session.sessionId, mfa: session.secondStep, doc: { type: document.type, id: document.id } })
      .setProtectedHeader({ alg: algorithm, typ: documentLinkType })
      .setSubject(String(session.userId))
      .setIssuer(issuer)
      .setAudience(documentLinkAudience)
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .sign(this.key)
      .then((token) => ({ token, expiresAt: new Date(expiresAt * 1000) }));
  }

  /** The claims of a genuine, unexpired document link; null for anything else. */
  async verify(token: string, now = Date.now()): Promise<DocumentLinkClaims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        algorithms: [algorithm],
        issuer,
        audience: documentLinkAudience,
        typ: documentLinkType,
        requiredClaims: ['exp', 'iat', 'sub'],
        currentDate: new Date(now),
      });
      const claims = documentLinkClaimsSchema.safeParse(payload);
      if (!claims.success) return null;
      return {
        userId: Number(claims.data.sub),
        tokenVersion: claims.data.ver,
        sessionId: claims.data.sid,
        expiresAt: new Date(claims.data.exp * 1000),
        secondStep: claims.data.mfa,
        document: claims.data.doc,
      };
    } catch (error) {
      if (error instanceof errors.JOSEError) return null;
      throw error;
    }
  }
}
