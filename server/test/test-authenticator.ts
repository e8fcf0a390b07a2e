import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';
import type {
  PasskeyAuthenticationResponse,
  PasskeyCreationOptions,
  PasskeyRegistrationResponse,
  PasskeyRequestOptions,
} from '@everest/core/contract';

// A software authenticator for server tests: a real ES256 (P-256) key pair, an attestation of
// format 'none' and assertions built by hand as WebAuthn Level 2 describes them, so that the
// server's checks run on real signatures. `origin` is what the "browser" reports.

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const flags = { userPresent: 0x01, userVerified: 0x04, attestedCredentialData: 0x40 };

function counterBytes(counter: number): Buffer {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(counter);
  return bytes;
}

/** The credential's public key as a COSE_Key (EC2, P-256, ES256). */
function coseKey(publicKey: KeyObject): Uint8Array {
  const jwk = publicKey.export({ format: 'jwk' });
  const coordinate = (value: string | undefined) => new Uint8Array(Buffer.from(value ?? '', 'base64url'));
  return isoCBOR.encode(
    new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, coordinate(jwk.x)],
      [-3, coordinate(jwk.y)],
    ]),
  );
}

export interface TestAuthenticator {
  /** base64url, as the server stores it. */
  credentialId: string;
  /** The signature counter the next assertion reports; tests may set it back to play a clone. */
  counter: number;
  register(options: PasskeyCreationOptions): PasskeyRegistrationResponse;
  /** Signs `options.challenge`, or a challenge of the test's choosing. */
  authenticate(options: PasskeyRequestOptions, challenge?: string): PasskeyAuthenticationResponse;
}

export function testAuthenticator(origin: string): TestAuthenticator {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rawId = randomBytes(32);
  const credentialId = b64url(rawId);

  const clientData = (type: 'webauthn.create' | 'webauthn.get', challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  const authenticator: TestAuthenticator = {
    credentialId,
    counter: 0,

    register(options) {
      const rpIdHash = sha256(options.rp.id ?? new URL(origin).hostname);
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([flags.userPresent | flags.userVerified | flags.attestedCredentialData]),
        counterBytes(authenticator.counter),
        Buffer.alloc(16), // AAGUID: none
        Buffer.from([rawId.length >> 8, rawId.length & 0xff]),
        rawId,
        coseKey(publicKey),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Map<string, never> | Uint8Array>([
          ['fmt', 'none'],
          ['attStmt', new Map<string, never>()],
          ['authData', new Uint8Array(authData)],
        ]),
      );
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
      };
    },

    authenticate(options, challenge = options.challenge) {
      authenticator.counter += 1;
      const rpId = options.rpId ?? new URL(origin).hostname;
      const authData = Buffer.concat([
        sha256(rpId),
        Buffer.from([flags.userPresent | flags.userVerified]),
        counterBytes(authenticator.counter),
      ]);
      const clientDataJSON = clientData('webauthn.get', challenge);
      // ES256: ECDSA with SHA-256 over authenticatorData ‖ SHA-256(clientDataJSON), DER-encoded.
      const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), privateKey);
      return {
        id: credentialId,
        rawId: credentialId,
        type: 'public-key',
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
      };
    },
  };
  return authenticator;
}
