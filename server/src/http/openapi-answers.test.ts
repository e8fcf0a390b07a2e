import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerCheck } from '../../test/openapi-answers';
import { startTestServer, type TestServer } from '../../test/harness';

/**
 * The harness holds every answer of the integration tests against the OpenAPI description
 * (test/openapi-answers.ts). Here the check itself is shown to catch what a client generated
 * from the description would trip over, and to let the server's real answers through.
 */
describe('the check of answers against the OpenAPI description', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ seed: true });
  });
  afterAll(() => server.close());

  const json = (value: unknown) => Buffer.from(JSON.stringify(value));
  const answer = (method: string, url: string, status: number, type: string, body: Buffer | null) => ({ method, url, status, type, encoding: '', body });

  it("finds nothing to say of the server's own answers, and counts them", async () => {
    const before = server.answers.checked;
    await server.api('/api/properties');
    await server.api('/api/investor/profile');
    const login = await server.api('/api/investor/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"email":"nobody@example.com"' });
    expect(login.status).toBe(400);
    expect(server.answers.checked - before).toBe(3);
    expect(server.answers.mismatches).toEqual([]);
  });

  it('names a status the operation does not declare', () => {
    const check = new AnswerCheck();
    check.check(answer('GET', '/api/properties', 201, 'application/json', json([])));
    expect(check.mismatches).toEqual(['GET /api/properties → 201: listProperties does not declare 201']);
    expect(() => check.assertNone()).toThrow(/does not say:\nGET \/api\/properties → 201/);
  });

  it('names a media type the response does not have', () => {
    const check = new AnswerCheck();
    check.check(answer('GET', '/api/investor/download/7?token=abc', 200, 'application/octet-stream', null));
    check.check(answer('GET', '/api/investor/download/7', 200, 'application/pdf', null));
    expect(check.mismatches).toEqual([expect.stringMatching(/^GET \/api\/investor\/download\/7 → 200: download answered application\/octet-stream, the description says application\/pdf or /)]);
  });

  it('names a body that does not fit its schema, and an error without its sentence', () => {
    const check = new AnswerCheck();
    check.check(answer('GET', '/api/health', 200, 'application/json; charset=utf-8', json({ status: 7 })));
    check.check(answer('POST', '/api/investor/login', 401, 'application/json', json({ message: 'no' })));
    expect(check.mismatches).toEqual([
      expect.stringMatching(/^GET \/api\/health → 200: health's answer does not fit its schema: \/status must be/),
      expect.stringMatching(/^POST \/api\/investor\/login → 401: login's answer does not fit its schema: \(the body\) must have required property 'error'/),
    ]);
  });

  it('names an address of the API that no operation describes, unless it is refused', () => {
    const check = new AnswerCheck();
    check.check(answer('GET', '/api/no-such-call', 404, 'application/json', json({ error: 'Not found.' })));
    check.check(answer('GET', '/api/no-such-call', 200, 'application/json', json({})));
    check.check(answer('POST', '/api/properties', 413, 'application/json', json({ error: 'Too large.' })));
    check.check(answer('GET', '/properties', 200, 'text/html', null));
    // The router's own leniency: any letter case and a trailing slash name the same call.
    check.check(answer('GET', '/api/Properties/', 200, 'application/json', json([])));
    expect(check.mismatches).toEqual(['GET /api/no-such-call → 200: no operation of the description has this method and path']);
  });
});
