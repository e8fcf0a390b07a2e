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

/**
 * Headers for every answer. The CSP allows only our own scripts (plus the captcha provider when
 * one is configured), so an injected script has nowhere to come from.
 */
export function securityHeaders(options: SecurityOptions): Middleware {
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
  // Pairs made once, set straight on the answer: Koa's ctx.set(object) walks and checks the
  // object again on every request.
  const headers = Object.entries(pairs);
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
