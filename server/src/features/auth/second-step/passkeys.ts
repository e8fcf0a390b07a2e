import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  PasskeyAuthenticationResponse,
  PasskeyCreationOptions,
  PasskeyRegistrationResponse,
  PasskeyRequestOptions,
  PasskeySummary,
} from '@everest/core/contract';
import type { Config } from '../../../config';
import type { IUser } from '../../users/user.entity';
import { Passkey, PasskeyChallenge, type IPasskey, type PasskeyPurpose } from './passkey.entity';

// The WebAuthn ceremonies (@simplewebauthn/server): options with a challenge the database keeps,
// and the checks of what the browser answers. The relying party is the site of PUBLIC_URL: a
// passkey made for it works nowhere else, and only pages served from that origin can use it.

/** How long a passkey challenge can be answered: the browser's own prompt gives up after a minute. */
export const passkeyChallengeLifetimeMs = 2 * 60_000;
const browserTimeoutMs = 60_000;
/**
 * EdDSA, ES256 and RS256, named rather than left to the library: where the runtime has ML-DSA
 * (Node 24, still experimental there) SimpleWebAuthn offers it first and Chromium takes it. A
 * passkey must keep working whichever runtime checks it next.
 */
const passkeyAlgorithms = [-8, -7, -257];

/**
 * The library, loaded at the first ceremony: it takes 150 ms to load, which every start of the
 * server (and every test file) paid whether anyone used a passkey or not.
 */
const webauthn = () => import('@simplewebauthn/server');

export function relyingParty(config: Config) {
  const url = new URL(config.publicUrl);
  return { rpID: url.hostname, origin: url.origin, rpName: 'Everest Properties' };
}

async function keepChallenge(em: EntityManager, user: IUser, purpose: PasskeyPurpose, challenge: string, expiresAt: Date) {
  em.create(PasskeyChallenge, { user, purpose, challenge, expiresAt });
  // Challenges nobody answered are of no use; whoever writes one clears them now and then.
  if (Math.random() < 0.01) await em.nativeDelete(PasskeyChallenge, { expiresAt: { $lt: new Date() } });
  await em.flush();
}

/**
 * Uses up the challenge an answer signed, if this server handed it to this user for this
 * ceremony and it has not expired: answers it, or null. Deleted before anything is checked, so
 * a challenge works once whether the answer turns out right or wrong, on whichever instance.
 */
async function takeChallenge(em: EntityManager, userId: number, purpose: PasskeyPurpose, clientDataJSON: string): Promise<string | null> {
  let challenge: string;
  try {
    challenge = (await import('@simplewebauthn/server/helpers')).decodeClientDataJSON(clientDataJSON).challenge;
  } catch {
    return null;
  }
  if (typeof challenge !== 'string' || challenge.length === 0 || challenge.length > 100) return null;
  const taken = await em.nativeDelete(PasskeyChallenge, { user: userId, purpose, challenge, expiresAt: { $gt: new Date() } });
  return taken === 1 ? challenge : null;
}

export async function userPasskeys(em: EntityManager, userId: number): Promise<IPasskey[]> {
  return em.find(Passkey, { user: userId }, { orderBy: { id: 'asc' } });
}

export const passkeySummary = (row: IPasskey): PasskeySummary => ({
  id: row.id,
  name: row.name,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

const descriptor = (row: IPasskey) => ({ id: row.credentialId, transports: row.transports });

/** The transports our contract names (WebAuthn's list); an authenticator's unknown ones are dropped. */
const knownTransports = ['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb'] as const;
const isKnownTransport = (value: string): value is (typeof knownTransports)[number] => (knownTransports as readonly string[]).includes(value);

/** The library types a descriptor's `type` as any string; WebAuthn has only 'public-key'. */
const asContractDescriptors = (list: { id: string; transports?: string[] }[] | undefined) =>
  list?.map((item) => ({ id: item.id, type: 'public-key' as const, transports: item.transports?.filter(isKnownTransport) }));

/** Options for a new passkey; the passkeys the user has already are excluded. */
export async function creationOptions(em: EntityManager, config: Config, user: IUser, displayName: string): Promise<PasskeyCreationOptions> {
  const { rpID, rpName } = relyingParty(config);
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName,
    rpID,
    userName: user.email,
    userDisplayName: displayName || user.email,
    // Our own id rather than the e-mail: the user handle is stored on the authenticator.
    userID: new TextEncoder().encode(`everest-user-${user.id}`),
    timeout: browserTimeoutMs,
    attestationType: 'none',
    excludeCredentials: (await userPasskeys(em, user.id)).map(descriptor),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
    supportedAlgorithmIDs: passkeyAlgorithms,
  });
  await keepChallenge(em, user, 'register', options.challenge, new Date(Date.now() + passkeyChallengeLifetimeMs));
  return { ...options, excludeCredentials: asContractDescriptors(options.excludeCredentials) };
}

/** A checked new credential, ready to store; null when the answer does not hold. */
export async function checkRegistration(em: EntityManager, config: Config, user: IUser, response: PasskeyRegistrationResponse) {
  const challenge = await takeChallenge(em, user.id, 'register', response.response.clientDataJSON);
  if (!challenge) return null;
  const { rpID, origin } = relyingParty(config);
  try {
    const result = await (await webauthn()).verifyRegistrationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
    });
    if (!result.verified) return null;
    const { credential } = result.registrationInfo;
    return { credentialId: credential.id, publicKey: Buffer.from(credential.publicKey), counter: credential.counter, transports: credential.transports ?? [] };
  } catch {
    return null;
  }
}

/** Options to sign a challenge with one of the user's passkeys, as the second step of a sign-in. */
export async function requestOptions(em: EntityManager, config: Config, user: IUser, passkeys: IPasskey[], notAfter: Date): Promise<PasskeyRequestOptions> {
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID: relyingParty(config).rpID,
    allowCredentials: passkeys.map(descriptor),
    userVerification: 'preferred',
    timeout: browserTimeoutMs,
  });
  const expiresAt = new Date(Math.min(Date.now() + passkeyChallengeLifetimeMs, notAfter.getTime()));
  await keepChallenge(em, user, 'sign-in', options.challenge, expiresAt);
  return { ...options, allowCredentials: asContractDescriptors(options.allowCredentials) };
}

/**
 * Checks a signed challenge against the user's passkey it names: a challenge of this user's
 * sign-in, the right origin and site, a valid signature, and a signature counter that moved on
 * (when the authenticator keeps one). Answers whether it holds; on success the counter and the
 * time of use are stored, conditionally, so that two racing answers cannot both pass.
 */
export async function usePasskey(em: EntityManager, config: Config, userId: number, response: PasskeyAuthenticationResponse): Promise<boolean> {
  const challenge = await takeChallenge(em, userId, 'sign-in', response.response.clientDataJSON);
  if (!challenge) return false;
  const row = await em.findOne(Passkey, { user: userId, credentialId: response.id });
  if (!row) return false;
  const { rpID, origin } = relyingParty(config);
  let newCounter: number;
  try {
    const result = await (await webauthn()).verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      credential: { id: row.credentialId, publicKey: new Uint8Array(row.publicKey), counter: row.counter, transports: row.transports },
      requireUserVerification: false,
    });
    if (!result.verified) return false;
    newCounter = result.authenticationInfo.newCounter;
  } catch {
    return false;
  }
  const moved = await em.nativeUpdate(Passkey, { id: row.id, counter: row.counter }, { counter: newCounter, lastUsedAt: new Date() });
  return moved === 1;
}
