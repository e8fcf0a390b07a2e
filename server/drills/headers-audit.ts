import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fillPath, loginAnswer, pagePaths, publicPropertyList, routes, type RouteDef } from '@everest/core/contract';
import { demoPassword } from '@everest/fixtures';
import { startTestServer, type TestServer } from '../test/harness';
import { webDist } from '../src/server';
import { placeholders } from './authorization-matrix';

/**
 * The headers audit: every line of the route table (as a stranger, an investor and
 * an administrator), every public page, robots and sitemap, static files, media and the 404s,
 * each answer checked for the headers every answer must carry, and `Cache-Control: no-store`
 * on every answer to a request that carried a session.
 */

export const publicUrl = 'https://everest.example.com';

export interface Audited {
  what: string;
  status: number;
  /** The request carried a session (a bearer token or a download's ?token=). */
  authenticated: boolean;
  missing: string[];
}

/** What every answer must carry, by header: a test of its value. */
const required: Record<string, (value: string) => boolean> = {
  'content-security-policy': (value) => /frame-ancestors '(self|none)'/.test(value),
  'x-content-type-options': (value) => value === 'nosniff',
  'referrer-policy': (value) => /^(no-referrer|same-origin|strict-origin|strict-origin-when-cross-origin)$/.test(value),
  'cross-origin-opener-policy': (value) => value === 'same-origin',
  // PUBLIC_URL is https here: a year, so a first visit over plain http is the only one.
  'strict-transport-security': (value) => /max-age=(\d+)/.exec(value) !== null && Number(/max-age=(\d+)/.exec(value)?.[1]) >= 31_536_000,
};

export function missingHeaders(headers: Headers, authenticated: boolean): string[] {
  const missing = Object.entries(required)
    .filter(([name, ok]) => !ok(headers.get(name) ?? ''))
    .map(([name]) => `${name}: ${headers.get(name) ?? '(none)'}`);
  if (authenticated && !/\bno-store\b/.test(headers.get('cache-control') ?? '')) missing.push(`cache-control: ${headers.get('cache-control') ?? '(none)'}`);
  return missing;
}

export async function startAuditedServer(): Promise<TestServer> {
  return startTestServer({ seed: true, webDist, env: { PUBLIC_URL: publicUrl } });
}

async function signIn(server: TestServer, email: string): Promise<string> {
  const res = await server.api('/api/investor/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.19.0.1' },
    body: JSON.stringify({ email, password: demoPassword }),
  });
  return loginAnswer.parse(await res.json()).token;
}

/** Every answer of the audit, with the headers it lacks. */
export async function auditHeaders(server: TestServer): Promise<Audited[]> {
  const investor = await signIn(server, 'investor@example.com');
  const admin = await signIn(server, 'admin@example.com');
  const audited: Audited[] = [];
  const look = async (what: string, address: string, init: { method?: string; token?: string; body?: string } = {}, authenticated = !!init.token) => {
    const res = await server.api(address, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        accept: 'application/json',
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
      },
      body: init.body,
    });
    await res.arrayBuffer();
    audited.push({ what, status: res.status, authenticated, missing: missingHeaders(res.headers, authenticated) });
    return res;
  };

  for (const [name, route] of Object.entries(routes as Record<string, RouteDef>)) {
    // Signing out would end the session the rest of the audit uses.
    if (route === routes.logout) continue;
    const address = fillPath(route.path, placeholders);
    const body = route.method === 'POST' ? '{}' : undefined;
    for (const [who, token] of [['anonymous', undefined], ['investor', investor], ['administrator', admin]] as const) {
      await look(`${route.method} ${name} as ${who}`, address, { method: route.method, token, body });
    }
  }
  await look('POST logout as investor', '/api/investor/logout', { method: 'POST', token: await signIn(server, 'investor@example.com'), body: '{}' });

  // The files themselves: as a bearer, as the spec's ?token=, and through a document link.
  const documents = (await (
    await server.api('/api/investor/documents', { headers: { authorization: `Bearer ${investor}` } })
  ).json()) as { documents: { id: number; documentType: string }[] };
  const personal = documents.documents.find((d) => d.documentType === 'personal');
  if (!personal) throw new Error('the demo data give investor@example.com a personal document');
  await look('download (bearer)', `/api/investor/download/${personal.id}?type=user`, { token: investor });
  await look('download (?token=)', `/api/investor/download/${personal.id}?type=user&token=${investor}`, {}, true);
  const link = (await (
    await server.api('/api/investor/document-link', {
      method: 'POST',
      headers: { authorization: `Bearer ${investor}`, 'content-type': 'application/json' },
      body: JSON.stringify({ id: personal.id, type: 'user' }),
    })
  ).json()) as { token: string };
  await look('preview (document link)', `/api/investor/download/${personal.id}?type=user&preview=1&token=${link.token}`, {}, true);

  await look('unknown API call', '/api/no-such-call');
  await look('unknown API call with a session', '/api/no-such-call', { token: investor });

  for (const page of pagePaths) await look(`page ${page}`, page);
  await look('page /investor-services with a session header', '/investor-services', { token: investor }, false);
  await look('404 page', '/no-such-page');
  await look('301 to the canonical page', '/Properties/');
  await look('robots.txt', '/robots.txt');
  await look('sitemap.xml', '/sitemap.xml');

  const assets = readdirSync(path.join(webDist, 'assets'));
  for (const extension of ['.js', '.css', '.svg', '.woff2']) {
    const asset = assets.find((file) => file.endsWith(extension));
    if (asset) await look(`static ${extension}`, `/assets/${asset}`);
  }
  await look('static favicon', '/favicon.svg');
  await look('static file that does not exist', '/assets/no-such-file.js');

  const properties = publicPropertyList.parse(await (await server.api('/api/properties')).json());
  const media = properties.map((p) => p.image).find((image): image is string => typeof image === 'string' && image.startsWith('/media/'));
  if (media) await look('media image', media);
  await look('media that does not exist', `/media/${'0'.repeat(64)}.webp`);
  return audited;
}

export function formatAudit(audited: Audited[]): string {
  const wrong = audited.filter((a) => a.missing.length > 0);
  const lines = [
    `${audited.length} answers audited (${audited.filter((a) => a.authenticated).length} to requests with a session), PUBLIC_URL ${publicUrl}`,
    `headers checked: ${Object.keys(required).join(', ')}; cache-control no-store when a session was sent`,
    `${wrong.length} answers missing a header`,
    ...wrong.slice(0, 40).map((a) => `  ${a.what} (${a.status}): ${a.missing.join('; ')}`),
  ];
  return lines.join('\n');
}
