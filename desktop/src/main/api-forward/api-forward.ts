// The renderer calls the API at its own origin (`everest://app/api/...`, the admin panel's
// relative `/api` paths unchanged) and the main process forwards each call to the configured
// server with the session's bearer token. So the token never reaches the renderer, the
// renderer's CSP can say `connect-src 'self'`, and the server needs no CORS or CSP exception
// for the app: to the server, the app is one more client with a bearer token.

/** The server's paths the renderer reaches: the API, and the property photos the panel shows. */
export const forwardedPrefixes = ['/api/', '/media/'];

/** Headers the renderer may pass on; anything else (cookies, its own Authorization, Origin) stays behind. */
const forwardedRequestHeaders = [
  'accept',
  'accept-language',
  'content-type',
  'idempotency-key',
  'range',
  'if-range',
  'if-none-match',
  'if-modified-since',
];

/**
 * Answer headers not passed back: cookies are never the renderer's business, and fetch has
 * already decoded a compressed body, so its encoding and length no longer describe it.
 */
const droppedResponseHeaders = ['set-cookie', 'set-cookie2', 'content-encoding', 'content-length'];

/**
 * The server URL a request on the app's origin is forwarded to, or null when it is not an API
 * call of that origin (then it is one of the renderer's files, or nothing).
 */
export function forwardedUrl(requestUrl: string, appOrigin: string, serverUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(requestUrl);
  } catch {
    return null;
  }
  // Compared by hand: WHATWG `origin` is "null" for custom schemes.
  if (`${url.protocol}//${url.host}` !== appOrigin) return null;
  if (!forwardedPrefixes.some((prefix) => url.pathname.startsWith(prefix))) return null;
  // `..` segments are resolved by the URL parser already; what is left stays under /api/.
  return `${serverUrl.replace(/\/+$/, '')}${url.pathname}${url.search}`;
}

export interface ForwardOptions {
  appOrigin: string;
  serverUrl: string;
  /** The session's bearer token, or null when signed out (the server then answers 401). */
  token: string | null;
  fetch?: typeof globalThis.fetch;
  /** Told when the server refused the session's token, so the app can sign out. */
  onUnauthorized?: () => void;
}

/** Forwards one API request of the renderer; null when `request` is not an API call. */
export async function forwardApiRequest(request: Request, options: ForwardOptions): Promise<Response | null> {
  const target = forwardedUrl(request.url, options.appOrigin, options.serverUrl);
  if (!target) return null;
  const headers = new Headers();
  for (const name of forwardedRequestHeaders) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  if (options.token) headers.set('authorization', `Bearer ${options.token}`);
  const hasBody = !['GET', 'HEAD'].includes(request.method);
  let answer: Response;
  try {
    answer = await (options.fetch ?? globalThis.fetch)(target, {
      method: request.method,
      headers,
      // Streamed, not read whole: a bulk upload can be large.
      body: hasBody ? request.body : undefined,
      // @ts-expect-error -- `duplex` is required by Node's fetch for a streamed body, and not yet in the DOM types
      duplex: hasBody ? 'half' : undefined,
      redirect: 'manual',
      signal: request.signal,
    });
  } catch {
    return Response.json({ error: 'Could not reach the server. Please check your connection and try again.' }, { status: 502 });
  }
  if (answer.status === 401 && options.token) options.onUnauthorized?.();
  const responseHeaders = new Headers(answer.headers);
  for (const name of droppedResponseHeaders) responseHeaders.delete(name);
  return new Response([101, 204, 205, 304].includes(answer.status) ? null : answer.body, {
    status: answer.status,
    statusText: answer.statusText,
    headers: responseHeaders,
  });
}
