import { demoPassword } from '@everest/fixtures';
import { loginAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';

/**
 * The brute-force figures of issue 22: for each endpoint a guesser or a flooder would call, how
 * many attempts pass before the first 429, counted once per account (the same account from ever
 * new addresses) and once per address (ever new accounts from one address).
 */

/** Past this many attempts without a 429 the endpoint counts as not limited. */
export const attemptCap = 150;

export interface Probe {
  endpoint: string;
  /** 'per account' or 'per address'. */
  scope: 'per account' | 'per address';
  /** Attempts answered before the first 429; null when none came within attemptCap. */
  before429: number | null;
  /** The 429's Retry-After, in seconds. */
  retryAfter: number | null;
}

let counter = 0;
const next = () => (counter += 1);
/** A client address no other probe uses (the server trusts X-Forwarded-For here). */
const address = () => {
  const n = next();
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

export async function startBruteForceServer(): Promise<TestServer> {
  return startTestServer({ seed: true, env: { TRUST_PROXY: 'true' } });
}

async function call(server: TestServer, path: string, from: string, init: { method?: string; body?: unknown; token?: string } = {}) {
  const res = await server.api(path, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      'x-forwarded-for': from,
      ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  await res.arrayBuffer();
  return res;
}

/** Attempts, one after the other, until the first 429 (or the cap). */
async function until429(endpoint: string, scope: Probe['scope'], attempt: (i: number) => Promise<Response>): Promise<Probe> {
  for (let i = 0; i < attemptCap; i++) {
    const res = await attempt(i);
    if (res.status === 429) return { endpoint, scope, before429: i, retryAfter: Number(res.headers.get('retry-after')) || null };
  }
  return { endpoint, scope, before429: null, retryAfter: null };
}

const wrongPassword = 'Wrong@Password1';
const newPassword = 'Brute@Force2026x';

export async function probeAll(server: TestServer): Promise<Probe[]> {
  const probes: Probe[] = [];
  const victim = 'margaret.chen@example.com';

  // Sign-in: wrong passwords.
  probes.push(await until429('POST /api/investor/login', 'per account', () => call(server, '/api/investor/login', address(), { body: { email: victim, password: wrongPassword } })));
  const loginFrom = address();
  probes.push(
    await until429('POST /api/investor/login', 'per address', () =>
      call(server, '/api/investor/login', loginFrom, { body: { email: `nobody-${next()}@example.com`, password: wrongPassword } }),
    ),
  );

  // The second step of sign-in: made-up mfaTokens (an account's wrong codes count with its sign-in failures).
  const verifyFrom = address();
  probes.push(
    await until429('POST /api/investor/login/verify', 'per address', () =>
      call(server, '/api/investor/login/verify', verifyFrom, { body: { mfaToken: `made-up-${next()}-${'x'.repeat(30)}`, code: '123456' } }),
    ),
  );

  // Current-password guesses with a stolen session.
  const session = loginAnswer.parse(
    await (
      await server.api('/api/investor/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address() },
        body: JSON.stringify({ email: 'john.smith@example.com', password: demoPassword }),
      })
    ).json(),
  ).token;
  probes.push(
    await until429('POST /api/investor/change-password', 'per account', () =>
      call(server, '/api/investor/change-password', address(), { body: { currentPassword: wrongPassword, newPassword }, token: session }),
    ),
  );

  // Reset requests: the same e-mail from ever new addresses, and ever new e-mails from one.
  probes.push(
    await until429('POST /api/investor/request-password-reset', 'per account', () =>
      call(server, '/api/investor/request-password-reset', address(), { body: { email: 'robert.alvarez@example.com' } }),
    ),
  );
  const resetFrom = address();
  probes.push(
    await until429('POST /api/investor/request-password-reset', 'per address', () =>
      call(server, '/api/investor/request-password-reset', resetFrom, { body: { email: `nobody-${next()}@example.com` } }),
    ),
  );

  // Set-password links: guessed tokens (a guess names no account, so only its address counts).
  const validateFrom = address();
  probes.push(
    await until429('GET /api/investor/validate-reset-token/:token', 'per address', () =>
      call(server, `/api/investor/validate-reset-token/guess-${next()}-${'y'.repeat(30)}`, validateFrom),
    ),
  );
  const setFrom = address();
  probes.push(
    await until429('POST /api/investor/reset-password', 'per address', () =>
      call(server, '/api/investor/reset-password', setFrom, { body: { token: `guess-${next()}-${'z'.repeat(30)}`, password: newPassword, confirmPassword: newPassword } }),
    ),
  );

  // Captcha: challenges (each costs a key derivation), and contact messages (counted before the captcha).
  const captchaFrom = address();
  probes.push(await until429('GET /api/captcha/challenge', 'per address', () => call(server, '/api/captcha/challenge', captchaFrom)));
  const contactFrom = address();
  probes.push(
    await until429('POST /api/contact', 'per address', () =>
      call(server, '/api/contact', contactFrom, {
        body: { firstName: 'Brute', lastName: 'Force', email: `sender-${next()}@example.com`, subject: 'Hello', message: 'A message.', recaptchaToken: 'not-solved' },
      }),
    ),
  );
  return probes;
}

export function formatProbes(probes: Probe[], ms: number): string {
  const width = Math.max(...probes.map((p) => p.endpoint.length)) + 2;
  return [
    `${'endpoint'.padEnd(width)}${'scope'.padEnd(14)}${'before 429'.padStart(11)}${'Retry-After'.padStart(13)}`,
    ...probes.map(
      (p) =>
        `${p.endpoint.padEnd(width)}${p.scope.padEnd(14)}${(p.before429 === null ? `>${attemptCap}` : String(p.before429)).padStart(11)}${(p.retryAfter === null ? '-' : `${p.retryAfter} s`).padStart(13)}`,
    ),
    `${probes.filter((p) => p.before429 === null).length} not limited, in ${ms} ms`,
  ].join('\n');
}
