import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../test/harness';
import {
  accountFailureLimit,
  accountGuessCeiling,
  addressFailureBudget,
  codesPerSignIn,
  pairFailureLimit,
  proofFailureLimit,
  signInCodeCeiling,
} from '../src/features/auth/login-attempts';
import { resetRequestLimitPerAddress, resetRequestLimitPerEmail } from '../src/features/auth/auth.service';
import { setPasswordFailureLimit } from '../src/features/auth/password-links';
import { captchaChallengeLimit } from '../src/features/captcha/captcha.routes';
import { contactRateLimit } from '../src/features/contact/contact.service';
import { probeAddressRefill, probeAll, probeAttackers, probeOwner, startBruteForceServer, type OwnerCase, type Probe } from './brute-force';

/**
 * Issue 22: every endpoint a guesser or a flooder would call answers 429 after its limit, per
 * account and per address. `pnpm drill` prints the same figures (brute-force.drill.ts).
 */
describe('brute force limits', () => {
  let server: TestServer;
  let probes: Probe[];
  let owner: OwnerCase[];
  let refill: OwnerCase[];
  let attackers: OwnerCase[];
  beforeAll(async () => {
    server = await startBruteForceServer();
    probes = await probeAll(server);
    owner = await probeOwner(server);
    refill = await probeAddressRefill(server);
    attackers = await probeAttackers(server);
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  it('limits sign-in, the second step, reset requests, set-password links and the captcha, each at its documented figure', () => {
    expect(probes.map((p) => [p.endpoint, p.scope, p.before429, p.check])).toEqual([
      ['POST /api/investor/login', 'per account', accountFailureLimit.limit, true],
      ['POST /api/investor/login', 'per account and address', pairFailureLimit.limit, false],
      ['POST /api/investor/login', 'per address', addressFailureBudget.burst, false],
      ['POST /api/investor/login/verify', 'per address', addressFailureBudget.burst, false],
      ['POST /api/investor/change-password', 'per account', proofFailureLimit.limit, false],
      ['POST /api/investor/request-password-reset', 'per account', resetRequestLimitPerEmail.limit, false],
      ['POST /api/investor/request-password-reset', 'per address', resetRequestLimitPerAddress.limit, false],
      ['GET /api/investor/validate-reset-token/:token', 'per address', setPasswordFailureLimit.limit, false],
      ['POST /api/investor/reset-password', 'per address', setPasswordFailureLimit.limit, false],
      ['GET /api/captcha/challenge', 'per address', captchaChallengeLimit.limit, false],
      ['POST /api/contact', 'per address', contactRateLimit.limit, false],
    ]);
    for (const probe of probes.filter((p) => !p.check)) expect(probe.retryAfter, probe.endpoint).toBeGreaterThan(0);
    // An address's budget grows back within a minute: never a lock of a whole window.
    const perAddress = probes.find((p) => p.endpoint === 'POST /api/investor/login' && p.scope === 'per address');
    expect(perAddress?.retryAfter).toBeLessThanOrEqual(addressFailureBudget.refillMs / 1000);
  });

  it('never refuses the owner of a guessed account who signs in from an address of their own, and tells them once', () => {
    expect(owner).toEqual([
      // The account's own count asks for the proof of work: it never refuses the right password.
      { case: 'right password, fresh address, no check', status: 429, check: true },
      { case: 'right password, fresh address, with the check', status: 200, check: false },
      { case: 'right password, from an address that guessed 10 times', status: 429, check: false },
      { case: 'e-mails to the owner about the guessing', status: 1, check: false },
      // Issue 33, gap 2: ten wrong from one stranger's address do not keep the owner out elsewhere.
      { case: "a stranger's 10 wrong from one address, then the owner from another, no check", status: 429, check: true },
      { case: "a stranger's 10 wrong from one address, then the owner from another, with the check", status: 200, check: false },
      { case: "the stranger's address, right password with the check", status: 429, check: false },
    ]);
  });

  it('holds the guess ceiling against many addresses with solved challenges, a window edge and wrong codes after a known password', () => {
    expect(attackers).toEqual([
      { case: 'passwords checked an hour, 30 addresses with solved challenges', status: accountGuessCeiling.limit, check: false },
      { case: 'then the right password alone (answered as a wrong one)', status: 401, check: true },
      { case: 'the owner: the password and the e-mailed code', status: 200, check: false },
      { case: 'one address, 10 guesses, 14 minutes later the 11th', status: 429, check: false },
      { case: 'and 16 minutes later (the window has slid past them)', status: 401, check: false },
      { case: 'wrong codes in one sign-in before its password is asked again', status: codesPerSignIn, check: false },
      { case: 'wrong codes from fresh addresses before the e-mailed code is asked', status: signInCodeCeiling.limit, check: false },
      { case: 'the owner: password, e-mailed code, right code', status: 200, check: false },
    ]);
  });

  it("grows an address's budget back one attempt a refill, never a lock of the whole window", () => {
    expect(refill).toEqual([
      { case: `guess ${addressFailureBudget.burst + 1}: the budget is spent`, status: 429, check: false },
      { case: 'one refill later: one attempt more', status: 401, check: false },
      { case: 'and not two', status: 429, check: false },
    ]);
  });
});
