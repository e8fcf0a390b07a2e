import { describe, expect, it } from 'vitest';
import { rendererContentSecurityPolicy, withRendererHeaders } from './renderer-headers';

describe("the renderer's headers", () => {
  it('sends the CSP as a header, frame-ancestors included, which a meta element cannot carry', async () => {
    const answer = withRendererHeaders(new Response('<!doctype html>', { status: 200, headers: { 'content-type': 'text/html' } }));
    expect(answer.headers.get('content-security-policy')).toBe(rendererContentSecurityPolicy);
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    expect(answer.headers.get('content-type')).toBe('text/html');
    expect(answer.status).toBe(200);
    await expect(answer.text()).resolves.toBe('<!doctype html>');
  });

  it('keeps the policy the app had: same-origin only, no eval, no plugins, no framing', () => {
    const directives = Object.fromEntries(rendererContentSecurityPolicy.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives).toEqual({
      'default-src': "'self'",
      'img-src': "'self' data: blob:",
      'connect-src': "'self'",
      'worker-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'object-src': "'none'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(rendererContentSecurityPolicy).not.toContain('unsafe-eval');
  });

  it("replaces a CSP the answer came with (the dev server's)", () => {
    const answer = withRendererHeaders(new Response('x', { headers: { 'content-security-policy': "default-src *" } }));
    expect(answer.headers.get('content-security-policy')).toBe(rendererContentSecurityPolicy);
  });

  it('keeps the status of a missing file', () => {
    expect(withRendererHeaders(new Response('Not found', { status: 404 })).status).toBe(404);
  });
});
