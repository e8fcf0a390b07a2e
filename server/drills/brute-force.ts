import { demoPassword } from '@everest/fixtures';
import { generate } from 'otplib';
import { loginAnswer, startTotpAnswer } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../test/harness';
import { accountGuessedSubject } from '../src/features/auth/auth-mail';
import { addressFailureBudget, pairFailureLimit } from '../src/features/auth/login-attempts';
import { hashPassword } from '../src/features/auth/password-hash';
import { altchaToken } from '../test/altcha';
import { queuedMails } from '../test/queued-mails';
import { User } from '../src/features/users/user.entity';

/**
 * The brute-force figures: for each endpoint a guesser or a flooder would
 * call, how many attempts pass before the first 429, counted once per account (the same account
 * from ever new addresses), once per address (ever new accounts from one address) and, for
 * sign-in, once per account at one address; and whether that 429 asks to wait or for the check.
 * Then what the owner of a guessed account meets (probeOwner).
 */

/** Past this many attempts without a 429 the endpoint counts as not limited. */
export const attemptCap = 150;

export interface Probe {
  endpoint: string;
  /** Whose attempts: one account from ever new addresses, one address for ever new accounts, or one account from one address. */
  scope: 'per account' | 'per address' | 'per account and address';
  /** Attempts answered before the first 429; null when none came within attemptCap. */
  before429: number | null;
  /** The 429's Retry-After, in seconds; null for a 429 that asks for the check instead. */
  retryAfter: number | null;
  /** The 429 asks for a proof of work (captchaRequired) rather than a wait: it refuses no one who does it. */
  check: boolean;
}

/**
 * What the owner of an account meets once strangers have guessed at it, each a case
 * and the status it got.
 */
export interface OwnerCase {
  case: string;
  status: number;
  /** The answer asked for the proof of work (captchaRequired) rather than refusing. */
  check: boolean;
}

let counter = 0;
const next = () => (counter += 1);
/** A client address no other probe uses (the server trusts X-Forwarded-For here). */
const address = () => {
  const n = next();
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};

export async function startBruteForceServer(): Promise<TestServer> {
  // ALTCHA_COMPLEXITY: cheap proofs of work, since the owner's probe solves a dozen.
  return startTestServer({ seed: true, env: { TRUST_PROXY: 'true', ALTCHA_COMPLEXITY: '100' } });
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
  return res;
}

/** Attempts, one after the other, until the first 429 (or the cap). */
async function until429(endpoint: string, scope: Probe['scope'], attempt: (i: number) => Promise<Response>): Promise<Probe> {
  for (let i = 0; i < attemptCap; i++) {
    const res = await attempt(i);
    if (res.status === 429) {
      const answer = (await res.json()) as { captchaRequired?: unknown };
      return { endpoint, scope, before429: i, retryAfter: Number(res.headers.get('retry-after')) || null, check: answer.captchaRequired === true };
    }
    await res.arrayBuffer();
  }
  return { endpoint, scope, before429: null, retryAfter: null, check: false };
}

const wrongPassword = 'Wrong@Password1';
const newPassword = 'Brute@Force2026x';

export async function probeAll(server: TestServer): Promise<Probe[]> {
  const probes: Probe[] = [];
  const victim = 'margaret.chen@example.com';

  // Sign-in: wrong passwords. Per account (from anywhere) the 429 asks for the check; per
  // account at one address and per address it says when to try again.
  probes.push(await until429('POST /api/investor/login', 'per account', () => call(server, '/api/investor/login', address(), { body: { email: victim, password: wrongPassword } })));
  const pairFrom = address();
  probes.push(
    await until429('POST /api/investor/login', 'per account and address', () =>
      call(server, '/api/investor/login', pairFrom, { body: { email: 'robert.alvarez@example.com', password: wrongPassword } }),
    ),
  );
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

/**
 * After strangers' guesses at an account (probeAll's 'per account', from ever new
 * addresses), its owner signs in with the right password from an address of their own: asked
 * for the check, then let in with it; from an address that guessed, refused; and told by
 * e-mail once.
 */
export async function probeOwner(server: TestServer): Promise<OwnerCase[]> {
  const owner = 'margaret.chen@example.com';
  const attempt = async (what: string, from: string, email: string, password: string, captcha?: string): Promise<OwnerCase> => {
    const res = await call(server, '/api/investor/login', from, { body: { email, password, ...(captcha ? { captcha } : {}) } });
    const answer = (await res.json()) as { captchaRequired?: unknown };
    return { case: what, status: res.status, check: answer.captchaRequired === true };
  };
  const signIn = (what: string, from: string, captcha?: string) => attempt(what, from, owner, demoPassword, captcha);
  // A guesser who does the check each time, from one address: stopped there after 10.
  const guessingFrom = address();
  for (let i = 0; i < pairFailureLimit.limit; i++) {
    const guess = await call(server, '/api/investor/login', guessingFrom, { body: { email: owner, password: wrongPassword, captcha: await altchaToken(server.api) } });
    await guess.arrayBuffer();
  }
  const notices = await queuedMails(server.services.orm.em.fork(), { recipient: owner });
  const cases = [
    await signIn('right password, fresh address, no check', address()),
    await signIn('right password, fresh address, with the check', address(), await altchaToken(server.api)),
    await signIn('right password, from an address that guessed 10 times', guessingFrom, await altchaToken(server.api)),
    { case: 'e-mails to the owner about the guessing', status: notices.filter((mail) => mail.subject === accountGuessedSubject).length, check: false },
  ];

  // A stranger's ten wrong passwords from one address, at an account nobody
  // guessed before; its owner then signs in from an address of their own.
  const other = 'investor2@example.com';
  const strangerFrom = address();
  for (let i = 0; i < pairFailureLimit.limit; i++) {
    const guess = await call(server, '/api/investor/login', strangerFrom, { body: { email: other, password: wrongPassword } });
    await guess.arrayBuffer();
  }
  const ownerFrom = address();
  cases.push(
    await attempt("a stranger's 10 wrong from one address, then the owner from another, no check", ownerFrom, other, demoPassword),
    await attempt("a stranger's 10 wrong from one address, then the owner from another, with the check", ownerFrom, other, demoPassword, await altchaToken(server.api)),
    await attempt("the stranger's address, right password with the check", strangerFrom, other, demoPassword, await altchaToken(server.api)),
  );
  return cases;
}

/**
 * An address's budget of failures grows back slowly, one attempt a refill, not a
 * lock of a whole window. The budget's clock is moved back by one refill (as a minute passing)
 * rather than waited for.
 */
export async function probeAddressRefill(server: TestServer): Promise<OwnerCase[]> {
  const from = address();
  const guess = (what: string) => attempt(server, what, from, `nobody-${next()}@example.com`);
  for (let i = 0; i < addressFailureBudget.burst; i++) await guess('spending the budget');
  const cases = [await guess(`guess ${addressFailureBudget.burst + 1}: the budget is spent`)];
  await server.services.orm.em
    .fork()
    .getConnection()
    .execute(`update rate_limit_budgets set full_at = full_at - make_interval(secs => ?) where key = ?`, [
      addressFailureBudget.refillMs / 1000 + 1,
      `login-failure:ip:${from}`,
    ]);
  cases.push(await guess('one refill later: one attempt more'), await guess('and not two'));
  return cases;
}

/** An account of the probe's own, so that no other probe's counts fall on it. */
async function newAccount(server: TestServer, name: string): Promise<string> {
  const email = `${name}-${next()}@example.com`;
  const em = server.services.orm.em.fork();
  em.create(User, { email, passwordHash: await hashPassword(demoPassword), firstName: 'Margaret', lastName: 'Chen' });
  await em.flush();
  return email;
}

/** The newest code e-mailed to `email`, queued a moment after the answer (so that its time tells nothing). */
async function emailedCodeIn(server: TestServer, email: string): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const mails = await queuedMails(server.services.orm.em.fork(), { recipient: email });
    const code = /sign-in code is (\d{6})/.exec(mails.filter((m) => /sign-in code is/.test(m.text)).at(-1)?.text ?? '')?.[1];
    if (code) return code;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return '';
}

/**
 * The attackers of the guess ceiling: a script with solved challenges from many addresses, one
 * address across a window's edge, and someone who knows the password trying codes. Each case is
 * a count of attempts or the status the owner got.
 */
export async function probeAttackers(server: TestServer): Promise<OwnerCase[]> {
  const cases: OwnerCase[] = [];
  const signIn = async (email: string, password: string, from: string, extra: object = {}) => {
    const captcha = await altchaToken((path) => server.api(path, { headers: { 'x-forwarded-for': from } }));
    return call(server, '/api/investor/login', from, { body: { email, password, captcha, ...extra } });
  };

  // Many addresses, each with its solved challenge: passwords checked until the ceiling.
  const guessed = await newAccount(server, 'many-addresses');
  const addresses = Array.from({ length: 30 }, address);
  let checked = 0;
  for (let i = 0; i < attemptCap; i++) {
    const res = await signIn(guessed, `${wrongPassword}${i}`, addresses[i % addresses.length] ?? '');
    const answer = (await res.json()) as { emailCodeRequired?: unknown };
    if (answer.emailCodeRequired === true) break;
    checked += 1;
  }
  cases.push({ case: 'passwords checked an hour, 30 addresses with solved challenges', status: checked, check: false });
  const right = await signIn(guessed, demoPassword, address());
  const rightAnswer = (await right.json()) as { emailCodeRequired?: unknown };
  cases.push({ case: 'then the right password alone (answered as a wrong one)', status: right.status, check: rightAnswer.emailCodeRequired === true });
  const owner = await signIn(guessed, demoPassword, address(), { emailCode: await emailedCodeIn(server, guessed) });
  await owner.arrayBuffer();
  cases.push({ case: 'the owner: the password and the e-mailed code', status: owner.status, check: false });

  // One address at a window's edge: its 10 guesses moved 14 minutes into the past still count.
  const edged = await newAccount(server, 'window-edge');
  const edgeFrom = address();
  for (let i = 0; i < pairFailureLimit.limit; i++) await (await call(server, '/api/investor/login', edgeFrom, { body: { email: edged, password: wrongPassword } })).arrayBuffer();
  const moveBack = (minutes: number) =>
    server.services.orm.em
      .fork()
      .getConnection()
      .execute(`update rate_limit_counters set window_start = window_start - make_interval(mins => ?) where key like ?`, [minutes, `%${edged}%`]);
  await moveBack(14);
  const atEdge = await call(server, '/api/investor/login', edgeFrom, { body: { email: edged, password: wrongPassword } });
  await atEdge.arrayBuffer();
  cases.push({ case: 'one address, 10 guesses, 14 minutes later the 11th', status: atEdge.status, check: false });
  await moveBack(2);
  const afterWindow = await call(server, '/api/investor/login', edgeFrom, { body: { email: edged, password: wrongPassword } });
  await afterWindow.arrayBuffer();
  cases.push({ case: 'and 16 minutes later (the window has slid past them)', status: afterWindow.status, check: false });

  // Someone who knows the password, trying codes.
  const known = await newAccount(server, 'known-password');
  const session = loginAnswer.parse(await (await call(server, '/api/investor/login', address(), { body: { email: known, password: demoPassword } })).json()).token;
  const started = startTotpAnswer.parse(
    await (await call(server, '/api/investor/second-step/totp/start', address(), { body: { currentPassword: demoPassword }, token: session })).json(),
  );
  await (await call(server, '/api/investor/second-step/totp/confirm', address(), { body: { code: await generate({ secret: started.secret }) }, token: session })).arrayBuffer();
  const passwordStep = async (from: string, extra: object = {}) => {
    const res = await call(server, '/api/investor/login', from, { body: { email: known, password: demoPassword, ...extra } });
    const answer = (await res.json()) as { mfaToken?: string };
    return answer.mfaToken ?? null;
  };
  const perSignIn = address();
  const oneSignIn = await passwordStep(perSignIn);
  let codesInOne = 0;
  for (let i = 0; i < attemptCap && oneSignIn; i++) {
    const res = await call(server, '/api/investor/login/verify', perSignIn, { body: { mfaToken: oneSignIn, code: '000000' } });
    const answer = (await res.json()) as { error?: string };
    if (/expired/.test(answer.error ?? '')) break;
    codesInOne += 1;
  }
  cases.push({ case: 'wrong codes in one sign-in before its password is asked again', status: codesInOne, check: false });
  let codesInAll = codesInOne;
  for (let i = 0; i < attemptCap; i++) {
    const from = address();
    const mfaToken = await passwordStep(from);
    if (!mfaToken) break;
    await (await call(server, '/api/investor/login/verify', from, { body: { mfaToken, code: '000000' } })).arrayBuffer();
    codesInAll += 1;
  }
  cases.push({ case: 'wrong codes from fresh addresses before the e-mailed code is asked', status: codesInAll, check: false });
  const ownerFrom = address();
  const ownerStep = await passwordStep(ownerFrom, { emailCode: await emailedCodeIn(server, known) });
  const ownerIn = ownerStep
    ? await call(server, '/api/investor/login/verify', ownerFrom, { body: { mfaToken: ownerStep, code: await generate({ secret: started.secret, epoch: Math.floor(Date.now() / 1000) + 30 }) } })
    : null;
  await ownerIn?.arrayBuffer();
  cases.push({ case: 'the owner: password, e-mailed code, right code', status: ownerIn?.status ?? 0, check: false });
  return cases;
}

async function attempt(server: TestServer, what: string, from: string, email: string): Promise<OwnerCase> {
  const res = await call(server, '/api/investor/login', from, { body: { email, password: wrongPassword } });
  const answer = (await res.json()) as { captchaRequired?: unknown };
  return { case: what, status: res.status, check: answer.captchaRequired === true };
}

export function formatProbes(probes: Probe[], ms: number, owner: OwnerCase[] = []): string {
  const width = Math.max(...probes.map((p) => p.endpoint.length)) + 2;
  const caseWidth = Math.max(0, ...owner.map((c) => c.case.length)) + 2;
  return [
    `${'endpoint'.padEnd(width)}${'scope'.padEnd(26)}${'before 429'.padStart(11)}${'then'.padStart(14)}`,
    ...probes.map(
      (p) =>
        `${p.endpoint.padEnd(width)}${p.scope.padEnd(26)}${(p.before429 === null ? `>${attemptCap}` : String(p.before429)).padStart(11)}${(p.check ? 'the check' : p.retryAfter === null ? '-' : `wait ${p.retryAfter} s`).padStart(14)}`,
    ),
    `${probes.filter((p) => p.before429 === null).length} not limited, in ${ms} ms`,
    ...(owner.length > 0
      ? [
          '',
          'The owner after strangers guessed, and an address refilling (sign-in status, or a count; "check" when the 429 asks for the proof of work):',
          ...owner.map((c) => `${c.case.padEnd(caseWidth)}${c.status}${c.check ? ' check' : ''}`),
        ]
      : []),
  ].join('\n');
}
