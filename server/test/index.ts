// The server's test tooling for the other packages' tests (@everest/server/testing): a real
// server over its own database, its SMTP listener, a TCP gate, an authenticator app's codes and
// the rate limits' windows. Each tool is also its own subpath (@everest/server/testing/totp), for
// suites outside Vitest (Playwright's) that must not load the harness.
import type {} from './global-setup';

export { startTestServer, createTestDatabase, type TestServer, type TestServerOptions, type TestDatabase } from './harness';
export { SmtpListener, type ReceivedMail } from './smtp-listener';
export { TcpGate, type GateMode } from './tcp-gate';
export { totpCode } from './totp';
export { awayFromRateLimitWindowEnd, rateLimitWindowGridMs, rateLimitWindowRoomMs } from './rate-limit-window';
