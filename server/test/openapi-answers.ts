import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { OpenAPIObject, OperationObject, ResponseObject } from 'openapi3-ts/oas31';
import { routes, type RouteDef } from '@everest/core/contract';
import { buildOpenApiDocument, openApiPath } from '../src/http/openapi';
import { RoutePatterns } from '../src/http/route-patterns';

/**
 * Every answer a test server gives, held against the OpenAPI description it serves, in
 * process: the status must be one the operation declares (a 2xx or 3xx by its own number, a
 * refusal by its number, its range or `default`), the media type one of that response's, and a
 * JSON body valid against its schema. What the description and the server disagree on is a
 * mismatch; the harness fails the test file that saw one.
 */

/** A JSON body larger than this is not kept for checking (no answer of the API comes near). */
const maxCheckedBody = 8 * 1024 * 1024;

interface Operation {
  name: string;
  operation: OperationObject;
  pointer: string;
}

const escapePointer = (part: string) => part.replace(/~/g, '~0').replace(/\//g, '~1');

class Description {
  /** The operations by `METHOD /route/:pattern`, the route table's own spelling. */
  private readonly operations = new Map<string, Operation>();
  // The router's own matching (any letter case, a trailing slash, literal paths first), as the metrics use it.
  private readonly patterns = new RoutePatterns();
  private readonly ajv: Ajv2020;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenAPIObject) {
    // The whole document is one schema resource, so `$ref: #/components/…` resolves inside it.
    this.ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(this.ajv);
    this.ajv.addSchema(document, 'openapi');
    for (const [name, route] of Object.entries(routes) as [string, RouteDef][]) {
      const template = openApiPath(route.path);
      const method = route.method.toLowerCase();
      this.operations.set(`${route.method} ${route.path}`, {
        name,
        operation: (document.paths?.[template] as Record<string, OperationObject>)[method]!,
        pointer: `openapi#/paths/${escapePointer(template)}/${method}`,
      });
    }
  }

  /** The operation an address names, if any. */
  operationOf(method: string, pathname: string): Operation | undefined {
    return this.operations.get(`${method} ${this.patterns.of(method, pathname)}`);
  }

  /** The declared response for a status and the JSON pointer to it, following a `$ref` to components. */
  responseOf(operation: Operation, status: number): { response: ResponseObject; pointer: string } | undefined {
    const key = [String(status), `${String(status)[0]}XX`, ...(status >= 400 ? ['default'] : [])].find((k) => operation.operation.responses?.[k]);
    if (!key) return undefined;
    const declared = operation.operation.responses![key] as ResponseObject | { $ref: string };
    if ('$ref' in declared) {
      const name = declared.$ref.split('/').pop() ?? '';
      return { response: this.document.components?.responses?.[name] as ResponseObject, pointer: `openapi#/components/responses/${escapePointer(name)}` };
    }
    return { response: declared, pointer: `${operation.pointer}/responses/${escapePointer(key)}` };
  }

  validatorFor(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: pointer });
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}

let description: Description | undefined;

interface Answer {
  method: string;
  url: string;
  status: number;
  type: string;
  encoding: string;
  body: Buffer | null;
}

function decoded(answer: Answer): Buffer {
  const body = answer.body ?? Buffer.alloc(0);
  if (answer.encoding === 'br') return brotliDecompressSync(body);
  if (answer.encoding === 'gzip') return gunzipSync(body);
  if (answer.encoding === 'deflate') return inflateSync(body);
  return body;
}

/** The answers one test server gave, and what of them the description does not say. */
export class AnswerCheck {
  checked = 0;
  readonly mismatches: string[] = [];

  /** Watches every answer `server` sends, beside the app's own handler. */
  watch(server: Server): void {
    server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => this.capture(req, res));
  }

  private capture(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    let size = 0;
    let keep: boolean | undefined;
    const write = res.write.bind(res) as (...args: unknown[]) => boolean;
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    const take = (chunk: unknown) => {
      // Decided at the first byte, once the headers are set: only JSON is read.
      keep ??= /json/i.test(String(res.getHeader('content-type') ?? ''));
      if (!keep || chunk === undefined || chunk === null || typeof chunk === 'function') return;
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
      size += buffer.length;
      if (size > maxCheckedBody) keep = false;
      else chunks.push(buffer);
    };
    res.write = ((chunk: unknown, ...rest: unknown[]) => {
      take(chunk);
      return write(chunk, ...rest);
    }) as ServerResponse['write'];
    res.end = ((chunk?: unknown, ...rest: unknown[]) => {
      take(chunk);
      return end(chunk, ...rest);
    }) as ServerResponse['end'];
    res.once('finish', () => {
      this.check({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        status: res.statusCode,
        type: String(res.getHeader('content-type') ?? ''),
        encoding: String(res.getHeader('content-encoding') ?? ''),
        body: keep ? Buffer.concat(chunks) : null,
      });
    });
  }

  check(answer: Answer): void {
    const { pathname } = new URL(answer.url, 'http://test');
    if (!pathname.startsWith('/api/')) return;
    description ??= new Description(buildOpenApiDocument('http://localhost'));
    const method = answer.method === 'HEAD' ? 'GET' : answer.method;
    const operation = description.operationOf(method, pathname);
    const call = `${answer.method} ${pathname} → ${answer.status}`;
    if (!operation) {
      // A call the description does not have may only be refused (404, 405, or a body refused
      // before routing): answering it would be an operation nobody described.
      if (answer.status < 400) this.mismatches.push(`${call}: no operation of the description has this method and path`);
      return;
    }
    this.checked += 1;
    const declared = description.responseOf(operation, answer.status);
    if (!declared) {
      this.mismatches.push(`${call}: ${operation.name} does not declare ${answer.status}`);
      return;
    }
    const content = declared.response.content;
    // An answer without a body (304, a HEAD) has no media type to hold against the description.
    if (!content || answer.status === 304 || answer.method === 'HEAD' || !answer.type) return;
    const mediaType = answer.type.split(';')[0]!.trim().toLowerCase();
    if (!(mediaType in content)) {
      this.mismatches.push(`${call}: ${operation.name} answered ${mediaType}, the description says ${Object.keys(content).join(' or ')}`);
      return;
    }
    if (answer.body === null || mediaType !== 'application/json') return;
    let body: unknown;
    try {
      body = JSON.parse(decoded(answer).toString('utf8'));
    } catch {
      this.mismatches.push(`${call}: ${operation.name} answered application/json that does not parse`);
      return;
    }
    const validate = description.validatorFor(`${declared.pointer}/content/${escapePointer(mediaType)}/schema`);
    if (!validate(body)) {
      const errors = (validate.errors ?? []).slice(0, 3).map((e) => `${e.instancePath || '(the body)'} ${e.message ?? ''}`);
      this.mismatches.push(`${call}: ${operation.name}'s answer does not fit its schema: ${errors.join('; ')}`);
    }
  }

  /** Throws with every mismatch seen, each once with how often. */
  assertNone(): void {
    if (this.mismatches.length === 0) return;
    const counts = new Map<string, number>();
    for (const m of this.mismatches) counts.set(m, (counts.get(m) ?? 0) + 1);
    const lines = [...counts].map(([m, n]) => (n > 1 ? `${m} (${n} times)` : m));
    throw new Error(`The server answered ${this.mismatches.length} time(s) what its OpenAPI description does not say:\n${lines.join('\n')}`);
  }
}
