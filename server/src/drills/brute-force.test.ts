import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestServer } from '../../test/harness';
import { loginFailureLimit } from '../features/auth/login-attempts';
import { resetRequestLimitPerAddress, resetRequestLimitPerEmail, setPasswordFailureLimit } from '../features/auth/auth.service';
import { captchaChallengeLimit } from '../features/captcha/captcha.routes';
import { contactRateLimit } from '../features/contact/contact.service';
import { probeAll, startBruteForceServer, type Probe } from './brute-force';

/**
 * Issue 22: every endpoint a guesser or a flooder would call answers 429 after its limit, per
 * account and per address. `pnpm drill` prints the same figures (brute-force.drill.ts).
 */
describe('brute force limits', () => {
  let server: TestServer;
  let probes: Probe[];
  beforeAll(async () => {
    server = await startBruteForceServer();
    probes = await probeAll(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('limits sign-in, the second step, reset requests, set-password links and the captcha, each at its documented figure', () => {
    expect(probes.map((p) => [p.endpoint, p.scope, p.before429])).toEqual([
      ['POST /api/investor/login', 'per account', loginFailureLimit.limit],
      ['POST /api/investor/login', 'per address', loginFailureLimit.limit],
      ['POST /api/investor/login/verify', 'per address', loginFailureLimit.limit],
      ['POST /api/investor/change-password', 'per account', loginFailureLimit.limit],
      ['POST /api/investor/request-password-reset', 'per account', resetRequestLimitPerEmail.limit],
      ['POST /api/investor/request-password-reset', 'per address', resetRequestLimitPerAddress.limit],
      ['GET /api/investor/validate-reset-token/:token', 'per address', setPasswordFailureLimit.limit],
      ['POST /api/investor/reset-password', 'per address', setPasswordFailureLimit.limit],
      ['GET /api/captcha/challenge', 'per address', captchaChallengeLimit.limit],
      ['POST /api/contact', 'per address', contactRateLimit.limit],
    ]);
    for (const probe of probes) expect(probe.retryAfter, probe.endpoint).toBeGreaterThan(0);
  });
});
