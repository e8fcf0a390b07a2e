/**
 * The renderer's Content Security Policy, sent as a header with each of the renderer's files
 * (by the app scheme, and by the renderer's test server): a `<meta>` cannot carry
 * `frame-ancestors`, and Chromium logs an error for it at every start. The API and the photos are
 * same-origin through main, so `'self'` is all the page ever reaches; styles are inline because
 * Fluent (Griffel) inserts its rules at run time; no `'unsafe-eval'`: zod runs without its JIT
 * (the renderer's main.tsx).
 */
export const rendererContentSecurityPolicy = [
  "default-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers every file of the renderer is answered with. */
export const rendererHeaders: Readonly<Record<string, string>> = {
  'Content-Security-Policy': rendererContentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
};

/** `answer` (a renderer file read from disk or from the dev server) with the renderer's headers. */
export function withRendererHeaders(answer: Response): Response {
  const headers = new Headers(answer.headers);
  for (const [name, value] of Object.entries(rendererHeaders)) headers.set(name, value);
  return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
}
