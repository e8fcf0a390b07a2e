import { demoPassword } from '@everest/fixtures';
import { loginAnswer } from '@everest/core/contract';
import { expect } from 'vitest';
import type { TestServer } from './harness';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

export interface CallOptions {
  method?: 'GET' | 'POST';
  body?: unknown;
  token?: string;
  /** The client address, through X-Forwarded-For (the test server trusts the proxy). */
  from?: string;
  headers?: Record<string, string>;
}

/**
 * A JSON client for the auth and profile tests that keeps every answer it sees, so that a test
 * file can check at the end that none of them carried a password hash.
 */
export function recordingClient(server: TestServer) {
  const texts: string[] = [];

  async function call(path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.from) headers['x-forwarded-for'] = options.from;
    const res = await server.api(path, {
      method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    texts.push(text);
    return { status: res.status, headers: res.headers, text, json: parseJson(text) };
  }

  async function signIn(email: string, password = demoPassword, from?: string): Promise<string> {
    const res = await call('/api/investor/login', { body: { email, password }, from });
    expect(res.status, res.text).toBe(200);
    return loginAnswer.parse(res.json).token;
  }

  function expectNoPasswordHashes(): void {
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) {
      expect(text).not.toContain('$argon2');
      expect(text).not.toMatch(/passwordHash|password_hash|tokenVersion/);
    }
  }

  return { call, signIn, expectNoPasswordHashes };
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

let addressCounter = 0;
/**
 * A client address of its own, so that one test's failures never count against another's. The
 * counter lives as long as the worker (test files share modules), so the addresses come from a
 * private range large enough never to repeat (172.16.0.0/12) and apart from the fixed
 * documentation addresses that tests name themselves.
 */
export function freshAddress(): string {
  addressCounter += 1;
  return `172.${16 + ((addressCounter >> 16) & 15)}.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
}
