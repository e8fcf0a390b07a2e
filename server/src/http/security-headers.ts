import type { Middleware } from 'koa';

export interface SecurityOptions {
  /** Extra origins the pages may load images from (map tiles). */
  imageOrigins: string[];
  /** Extra origins for scripts and frames (reCAPTCHA when configured). */
  scriptOrigins: string[];
  connectOrigins: string[];
  /** PUBLIC_URL is https: browsers are told to come back only over https (HSTS), for a year. */
  httpsOnly: boolean;
}

/** A header's name and value, as they are set on every answer. */
export type HeaderPair = readonly [name: string, value: string];

/**
 * The headers of every answer, decided once. The CSP allows only our own scripts (plus the
 * captcha provider when one is configured), so an injected script has nowhere to come from.
 */
export function securityHeaderPairs(options: SecurityOptions): HeaderPair[] {
  const csp = [
    "default-src 'self'",
    `script-src 'self' ${options.scriptOrigins.join(' ')}`.trim(),
    // Fluent UI (Griffel) and Leaflet write style attributes and <style> tags at run time.
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: blob: ${options.imageOrigins.join(' ')}`.trim(),
    "font-src 'self' data:",
    `connect-src 'self' ${options.connectOrigins.join(' ')}`.trim(),
    `frame-src 'self' ${options.scriptOrigins.join(' ')}`.trim(),
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    // Our own pages may frame our own documents (the preview modal), nobody else may frame us.
    "frame-ancestors 'self'",
  ].join('; ');
  const pairs: Record<string, string> = {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'SAMEORIGIN',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  };
  if (options.httpsOnly) pairs['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  return Object.entries(pairs);
}

/**
 * Sets the security headers on every answer Koa gives (the hot answers set them themselves):
 * pairs made once, set straight on the answer, as Koa's ctx.set(object) would walk and check
 * the object again on every request.
 */
export function securityHeaders(headers: readonly HeaderPair[]): Middleware {
  return (ctx, next) => {
    for (const [name, value] of headers) ctx.res.setHeader(name, value);
    return next();
  };
}

/** Origin of a URL template such as `https://{s}.tile.openstreetmap.org/{z}/{x}/{y}.png`. */
export function originOf(template: string): string | null {
  const match = /^(https?:\/\/[^/]+)/.exec(template);
  if (!match?.[1]) return null;
  // `{s}` subdomains become a wildcard host.
  return match[1].replace(/\{s\}/, '*');
}
