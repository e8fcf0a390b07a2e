import type { z } from 'zod';
import { fillPath } from '../contract/paths';
import { routes, type RouteName, type Routes } from '../contract/routes';

/**
 * A non-OK answer, a network failure (status 0) or an answer that breaks the contract. `answer`
 * is a non-OK answer's JSON body, for the few that say more than their sentence (a sign-in's
 * `captchaRequired`, see signInCheckAnswer); undefined otherwise.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly answer: unknown;
  constructor(
    readonly status: number,
    message: string,
    options?: { cause?: unknown; answer?: unknown },
  ) {
    super(message, options);
    this.answer = options?.answer;
  }
}

function jsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The message of a non-OK answer, in the spec's order of preference: the answer's `error`
 * field; the whole JSON body as text; the raw text; the HTTP status text. HTTP/2 has no status
 * text, hence the last fallback.
 */
export function errorMessageOf(status: number, statusText: string, bodyText: string): string {
  const text = bodyText.trim();
  if (text !== '') {
    let json: unknown;
    let isJson = false;
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      // not JSON: the raw text below
    }
    if (isJson) {
      if (typeof json === 'object' && json !== null && 'error' in json) {
        const error = json.error;
        if (typeof error === 'string' && error.trim() !== '') return error;
      }
      return JSON.stringify(json);
    }
    return text;
  }
  if (statusText.trim() !== '') return statusText;
  return `The request failed with status ${status}.`;
}

/** 'throw' (default) raises an ApiError on 401; 'returnNull' answers null instead. */
export type On401 = 'throw' | 'returnNull';

export type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions<M extends On401 = On401> {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON, or as it is when it is FormData. */
  body?: unknown;
  query?: object;
  on401?: M;
  /** Whether to send the bearer token (default true). */
  auth?: boolean;
  signal?: AbortSignal;
  /** e.g. 'no-store' for the admin user list, which the spec fetches with no cache. */
  cache?: RequestCache;
  headers?: Record<string, string>;
}

export interface ApiClientOptions {
  /** Prepended to every path; '' for the same origin. */
  baseUrl?: string;
  /** The session token, sent as `Authorization: Bearer`; null when signed out. */
  getToken?: () => string | null;
  fetch?: typeof globalThis.fetch;
}

// ---- Typing of `call` ------------------------------------------------------------------------

type BodyPart<R> = R extends { body: infer B extends z.ZodType }
  ? R extends { multipart: true }
    ? { body: z.input<B> | FormData }
    : { body: z.input<B> }
  : { body?: undefined };
type QueryPart<R> = R extends { query: infer Q extends z.ZodType } ? { query?: z.input<Q> } : { query?: undefined };
type ParamsPart<R> = R extends { params: infer P extends z.ZodType } ? { params: z.input<P> } : { params?: undefined };

/** What `call` takes for a route: its body, query and path parameters, typed from the contract. */
export type CallInput<N extends RouteName> = BodyPart<Routes[N]> & QueryPart<Routes[N]> & ParamsPart<Routes[N]>;

/** Routes that answer JSON (the others answer files: use `urlFor`). */
export type JsonRouteName = {
  [N in RouteName]: Routes[N] extends { answer: z.ZodType } ? N : never;
}[RouteName];

export type CallAnswer<N extends RouteName> = Routes[N] extends { answer: infer A extends z.ZodType }
  ? z.output<A>
  : never;

export type CallOptions<M extends On401> = Pick<RequestOptions<M>, 'on401' | 'signal' | 'cache' | 'headers'>;

type Resolved<T, M extends On401> = M extends 'returnNull' ? T | null : T;

// Input may be left out when nothing in it is required.
type CallArgs<N extends RouteName, M extends On401> =
  Partial<CallInput<N>> extends CallInput<N>
    ? [input?: CallInput<N>, options?: CallOptions<M>]
    : [input: CallInput<N>, options?: CallOptions<M>];

// ---- The client ------------------------------------------------------------------------------

export interface ApiClient {
  /** One request with the spec's shared behaviour; answers the parsed JSON (null when empty). */
  request<T = unknown, M extends On401 = 'throw'>(path: string, options?: RequestOptions<M>): Promise<Resolved<T, M>>;
  /** A call of the route table, its answer checked against the route's answer schema. */
  call<N extends JsonRouteName, M extends On401 = 'throw'>(
    name: N,
    ...args: CallArgs<N, M>
  ): Promise<Resolved<CallAnswer<N>, M>>;
  /**
   * The URL of a route, for browser navigation to a file (download, CSV template):
   * `urlFor('download', { params: { id: 7 }, query: { token, type: 'user' } })`.
   */
  urlFor<N extends RouteName>(name: N, input?: Pick<CallInput<N>, 'params' | 'query'>): string;
}

function isQueryValue(value: unknown): value is QueryValue {
  return value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value);
}

/** The query string of a plain object, leaving out null and undefined values. */
function queryString(query: unknown): string {
  if (typeof query !== 'object' || query === null) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (isQueryValue(value) && value !== undefined && value !== null) search.append(key, String(value));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

/** The outcome of one exchange: a 401 the caller asked to see as null, or the parsed JSON. */
type Outcome = { unauthorized: true } | { unauthorized: false; status: number; json: unknown };

export function createApiClient(options: ApiClientOptions = {}): ApiClient {
  const baseUrl = (options.baseUrl ?? '').replace(/\/+$/, '');
  const getToken = options.getToken ?? (() => null);
  // Looked up at call time, so that a fetch installed after the client was made still counts.
  const fetchFn = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => globalThis.fetch(input, init));

  async function send(path: string, opts: RequestOptions): Promise<Outcome> {
    const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
    let body: BodyInit | undefined;
    if (opts.body instanceof FormData) {
      // Passed through untouched: fetch sets the multipart content type with its boundary.
      body = opts.body;
    } else if (opts.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(opts.body);
    }
    const token = opts.auth === false ? null : getToken();
    if (token) headers.Authorization = `Bearer ${token}`;

    const init: RequestInit = {
      method: opts.method ?? (body === undefined ? 'GET' : 'POST'),
      headers,
      credentials: 'include',
    };
    if (body !== undefined) init.body = body;
    if (opts.signal) init.signal = opts.signal;
    if (opts.cache) init.cache = opts.cache;

    let response: Response;
    try {
      response = await fetchFn(`${baseUrl}${path}${queryString(opts.query)}`, init);
    } catch (error) {
      if (opts.signal?.aborted) throw error;
      throw new ApiError(0, 'Could not reach the server. Please check your connection and try again.', {
        cause: error,
      });
    }

    if (response.status === 401 && opts.on401 === 'returnNull') return { unauthorized: true };
    const text = await response.text();
    if (!response.ok) {
      throw new ApiError(response.status, errorMessageOf(response.status, response.statusText, text), { answer: jsonOrUndefined(text) });
    }
    if (text.trim() === '') return { unauthorized: false, status: response.status, json: null };
    try {
      return { unauthorized: false, status: response.status, json: JSON.parse(text) };
    } catch (error) {
      throw new ApiError(response.status, 'The server sent an answer that could not be read.', { cause: error });
    }
  }

  async function request(path: string, opts: RequestOptions = {}): Promise<unknown> {
    const outcome = await send(path, opts);
    return outcome.unauthorized ? null : outcome.json;
  }

  function urlFor(name: RouteName, input: { params?: object; query?: object } = {}): string {
    return `${baseUrl}${fillPath(routes[name].path, { ...input.params })}${queryString(input.query)}`;
  }

  async function call(
    name: JsonRouteName,
    input: { body?: unknown; query?: object; params?: object } = {},
    callOptions: CallOptions<On401> = {},
  ): Promise<unknown> {
    const route = routes[name];
    const outcome = await send(fillPath(route.path, { ...input.params }), {
      ...callOptions,
      method: route.method,
      body: input.body,
      query: input.query,
      // The spec sends no token to the public calls (password reset request, token validation).
      auth: route.access !== 'public',
    });
    if (outcome.unauthorized) return null;
    const parsed = route.answer.safeParse(outcome.json);
    if (!parsed.success) {
      throw new ApiError(outcome.status, `The server's answer to ${route.path} does not match the contract.`, {
        cause: parsed.error,
      });
    }
    return parsed.data;
  }

  // The functions above are written against untyped shapes; the interface gives callers the
  // contract's types, which they honour by construction.
  return { request, call, urlFor } as ApiClient;
}
