import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { AdminPropertyAnswer, ProfileAnswer } from '../contract';
import { ApiError, createApiClient, errorMessageOf } from './api-client';

// A tiny real HTTP server: each path answers one case of the spec's request behaviour.
interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
let server: Server;
let baseUrl = '';
const seen: Seen[] = [];

const user = {
  id: 1,
  firstName: 'Jane',
  lastName: 'Doe',
  email: 'jane@example.com',
  entity: '',
  streetAddress: '',
  city: '',
  state: '',
  zipCode: '',
  role: 'user',
  isActive: true,
  lastLoginAt: null,
  previousLoginAt: null,
};
const property = {
  id: 3,
  name: 'Oak Court',
  image: null,
  imageVariants: null,
  type: 'residential',
  status: 'active',
  address: '1 Oak St',
  city: 'Pasadena',
  state: 'CA',
  zipCode: '91101',
  phone: null,
  website: null,
  latitude: '34.147785',
  longitude: '-118.144516',
  investorRelations: true,
};

function answer(res: ServerResponse, status: number, body: string, type = 'application/json', reason?: string) {
  res.statusCode = status;
  if (reason !== undefined) res.statusMessage = reason;
  if (body !== '') res.setHeader('Content-Type', type);
  res.end(body);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const url = req.url ?? '';
      seen.push({ method: req.method ?? '', url, headers: req.headers, body });
      const path = url.split('?')[0];
      switch (path) {
        case '/echo':
          return answer(res, 200, JSON.stringify({ ok: true }));
        case '/empty-ok':
          return answer(res, 204, '');
        case '/error-field':
          return answer(res, 409, JSON.stringify({ error: 'That email address is already in use.' }));
        case '/json-without-error':
          return answer(res, 400, JSON.stringify({ detail: 'bad', code: 7 }));
        case '/json-empty-error':
          return answer(res, 400, JSON.stringify({ error: '', detail: 'bad' }));
        case '/raw-text':
          return answer(res, 502, 'Bad gateway from the proxy', 'text/plain');
        case '/status-text':
          return answer(res, 503, '', 'text/plain', 'Service Unavailable');
        case '/unauthorized':
          return answer(res, 401, JSON.stringify({ error: 'Please sign in to continue.' }));
        case '/not-json':
          return answer(res, 200, '<html>hello</html>', 'text/html');
        case '/api/investor/profile':
          return answer(res, 200, JSON.stringify({ user }));
        case '/api/admin/property/3':
          return answer(res, 200, JSON.stringify({ property }));
        case '/api/admin/property/4':
          return answer(res, 200, JSON.stringify({ property: { ...property, id: 'four' } }));
        case '/api/admin/user-documents':
          return answer(res, 200, JSON.stringify({ documents: [], totalCount: 0 }));
        case '/api/investor/request-password-reset':
          return answer(res, 200, JSON.stringify({ message: 'Sent.' }));
        case '/api/admin/upload-document':
          return answer(res, 400, JSON.stringify({ error: 'Please choose a file.' }));
        default:
          return answer(res, 404, JSON.stringify({ error: 'Not found.' }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

function lastSeen(): Seen {
  const request = seen.at(-1);
  if (!request) throw new Error('the server saw no request');
  return request;
}

async function failureOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

describe('request', () => {
  it('sends JSON with a JSON content type and the bearer token, and answers the parsed JSON', async () => {
    const client = createApiClient({ baseUrl, getToken: () => 'tok-123' });
    const result = await client.request('/echo', { body: { a: 1 } });
    expect(result).toEqual({ ok: true });
    const request = lastSeen();
    expect(request.method).toBe('POST');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe('Bearer tok-123');
    expect(JSON.parse(request.body)).toEqual({ a: 1 });
  });

  it('sends no Authorization header and no content type without a token or data', async () => {
    const client = createApiClient({ baseUrl, getToken: () => null });
    await client.request('/echo');
    const request = lastSeen();
    expect(request.method).toBe('GET');
    expect(request.headers.authorization).toBeUndefined();
    expect(request.headers['content-type']).toBeUndefined();
  });

  it('passes FormData through untouched, so fetch sends it as multipart', async () => {
    const client = createApiClient({ baseUrl });
    const form = new FormData();
    form.append('title', 'Q1 report');
    form.append('document', new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'q1.pdf');
    await client.request('/echo', { body: form });
    const request = lastSeen();
    expect(request.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    expect(request.body).toContain('Q1 report');
    expect(request.body).toContain('filename="q1.pdf"');
  });

  it('always asks fetch to include cookies', async () => {
    const inits: RequestInit[] = [];
    const client = createApiClient({
      fetch: async (_input, init) => {
        inits.push(init ?? {});
        return new Response('{}', { status: 200 });
      },
    });
    await client.request('/anything');
    await client.request('/anything', { body: { x: 1 } });
    expect(inits.map((init) => init.credentials)).toEqual(['include', 'include']);
  });

  it('answers null for an empty successful answer', async () => {
    const client = createApiClient({ baseUrl });
    expect(await client.request('/empty-ok')).toBeNull();
  });

  it('adds query values and leaves out null and undefined ones', async () => {
    const client = createApiClient({ baseUrl });
    await client.request('/echo', { query: { page: 2, search: 'a b', gone: undefined, none: null, flag: true } });
    expect(lastSeen().url).toBe('/echo?page=2&search=a+b&flag=true');
  });

  it('raises an ApiError when the answer is not JSON', async () => {
    const client = createApiClient({ baseUrl });
    const error = await failureOf(client.request('/not-json'));
    expect(error.status).toBe(200);
    expect(error.message).toBe('The server sent an answer that could not be read.');
  });

  it('raises an ApiError with status 0 when the server cannot be reached', async () => {
    const client = createApiClient({
      fetch: async () => {
        throw new TypeError('fetch failed');
      },
    });
    const error = await failureOf(client.request('/echo'));
    expect(error.status).toBe(0);
    expect(error.message).toBe('Could not reach the server. Please check your connection and try again.');
  });
});

describe('error message of a non-OK answer', () => {
  const client = () => createApiClient({ baseUrl });

  it("prefers the answer's error field", async () => {
    const error = await failureOf(client().request('/error-field'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(409);
    expect(error.message).toBe('That email address is already in use.');
    // The whole answer too, for the few that say more than their sentence (captchaRequired).
    expect(error.answer).toEqual({ error: 'That email address is already in use.' });
  });

  it('falls back to the whole JSON body as text when there is no error field', async () => {
    const error = await failureOf(client().request('/json-without-error'));
    expect(error.message).toBe('{"detail":"bad","code":7}');
  });

  it('falls back to the whole JSON body when the error field is empty', async () => {
    const error = await failureOf(client().request('/json-empty-error'));
    expect(error.message).toBe('{"error":"","detail":"bad"}');
  });

  it('falls back to the raw text when the body is not JSON', async () => {
    const error = await failureOf(client().request('/raw-text'));
    expect(error.status).toBe(502);
    expect(error.message).toBe('Bad gateway from the proxy');
  });

  it('falls back to the HTTP status text when the body is empty', async () => {
    const error = await failureOf(client().request('/status-text'));
    expect(error.message).toBe('Service Unavailable');
  });

  it('says which status failed when there is neither body nor status text (HTTP/2)', async () => {
    // Node's HTTP/1.1 server always sends a reason phrase, so this case needs a stub of fetch.
    const http2Like = createApiClient({ fetch: async () => new Response(null, { status: 500, statusText: '' }) });
    const error = await failureOf(http2Like.request('/anything'));
    expect(error.message).toBe('The request failed with status 500.');
  });

  it('follows the same order as a pure function', () => {
    expect(errorMessageOf(400, 'Bad Request', '{"error":"Nope."}')).toBe('Nope.');
    expect(errorMessageOf(400, 'Bad Request', '{"error":{"code":1}}')).toBe('{"error":{"code":1}}');
    expect(errorMessageOf(400, 'Bad Request', '["a"]')).toBe('["a"]');
    expect(errorMessageOf(400, 'Bad Request', 'plain')).toBe('plain');
    expect(errorMessageOf(400, 'Bad Request', '  ')).toBe('Bad Request');
  });
});

describe('401 answers', () => {
  it('raise an ApiError by default', async () => {
    const client = createApiClient({ baseUrl });
    const error = await failureOf(client.request('/unauthorized'));
    expect(error.status).toBe(401);
    expect(error.message).toBe('Please sign in to continue.');
  });

  it("yield null in the 'returnNull' mode", async () => {
    const client = createApiClient({ baseUrl });
    expect(await client.request('/unauthorized', { on401: 'returnNull' })).toBeNull();
  });

  it("still raise other errors in the 'returnNull' mode", async () => {
    const client = createApiClient({ baseUrl });
    const error = await failureOf(client.request('/error-field', { on401: 'returnNull' }));
    expect(error.status).toBe(409);
  });

  it("yield null from a typed call in the 'returnNull' mode", async () => {
    const client = createApiClient({
      fetch: async () => new Response('{"error":"Please sign in."}', { status: 401 }),
    });
    const profile = await client.call('profile', {}, { on401: 'returnNull' });
    expectTypeOf(profile).toEqualTypeOf<ProfileAnswer | null>();
    expect(profile).toBeNull();
  });
});

describe('call', () => {
  it('fills the path from the route table and answers the checked answer', async () => {
    const client = createApiClient({ baseUrl, getToken: () => 'tok' });
    const result = await client.call('adminProperty', { params: { id: 3 } });
    expectTypeOf(result).toEqualTypeOf<AdminPropertyAnswer>();
    expect(result.property.name).toBe('Oak Court');
    expect(lastSeen()).toMatchObject({ method: 'GET', url: '/api/admin/property/3' });
    expect(lastSeen().headers.authorization).toBe('Bearer tok');
  });

  it('refuses an answer that breaks the contract', async () => {
    const client = createApiClient({ baseUrl });
    const error = await failureOf(client.call('adminProperty', { params: { id: 4 } }));
    expect(error.message).toBe("The server's answer to /api/admin/property/:id does not match the contract.");
  });

  it('sends the query of a paged list', async () => {
    const client = createApiClient({ baseUrl });
    const result = await client.call('adminPersonalDocuments', { query: { page: 2, limit: 10, search: 'tax' } });
    expect(result).toEqual({ documents: [], totalCount: 0 });
    expect(lastSeen().url).toBe('/api/admin/user-documents?page=2&limit=10&search=tax');
  });

  it('sends no token to the public password-reset request, as the spec says', async () => {
    const client = createApiClient({ baseUrl, getToken: () => 'tok' });
    await client.call('requestPasswordReset', { body: { email: 'jane@example.com' } });
    expect(lastSeen().method).toBe('POST');
    expect(lastSeen().headers.authorization).toBeUndefined();
    expect(JSON.parse(lastSeen().body)).toEqual({ email: 'jane@example.com' });
  });

  it("raises the server's error of a multipart upload", async () => {
    const client = createApiClient({ baseUrl });
    const form = new FormData();
    form.append('title', 'Report');
    const error = await failureOf(client.call('uploadDocument', { body: form }));
    expect(error.message).toBe('Please choose a file.');
  });

  it('types its input from the contract', () => {
    const client = createApiClient();
    // Only checked by the type checker; never awaited.
    const typeOnly = () => {
      // @ts-expect-error the path needs its id
      void client.call('adminProperty', {});
      // @ts-expect-error the body needs an email
      void client.call('requestPasswordReset', { body: {} });
      // @ts-expect-error a file route has no JSON answer to call for (the route named, not
      // inferred: a name outside the JSON routes then costs the checker every route's input, 50 s)
      void client.call<'download'>('download', { params: { id: 1 } });
    };
    expect(typeof typeOnly).toBe('function');
  });
});

describe('urlFor', () => {
  it('builds the address of a download for browser navigation', () => {
    const client = createApiClient({ baseUrl: 'https://everest.example/' });
    expect(client.urlFor('download', { params: { id: 42 }, query: { token: 'a b', type: 'user' } })).toBe(
      'https://everest.example/api/investor/download/42?token=a+b&type=user',
    );
    expect(client.urlFor('bulkImportTemplate')).toBe('https://everest.example/api/bulk-import-template');
  });
});
