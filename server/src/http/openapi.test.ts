import { Validator } from '@seriousme/openapi-schema-validator';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorAnswer, routes, type RouteDef, type RouteName } from '@everest/core/contract';
import { startTestServer, type TestServer } from '../../test/harness';

interface Operation {
  operationId: string;
  summary: string;
  parameters: { name: string; in: string; required: boolean }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema: unknown }>; $ref?: string }>;
  security?: unknown[];
}
interface Document {
  openapi: string;
  info: { license?: { name: string; url?: string } };
  servers: { url: string }[];
  components: { schemas: Record<string, unknown>; responses: Record<string, { content: Record<string, { schema: unknown }> }>; securitySchemes: Record<string, unknown> };
  paths: Record<string, Record<string, Operation>>;
}

/** Redocly's lint of a document, by its own command line, as `problems` (empty when it passes) and `totals`. */
interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
}

const redoclyCli = path.join(path.dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin/cli.js');

/**
 * Loaded before the command line runs: any connection it tries (telemetry, an update check, a
 * remote ruleset) is refused and written to stderr, where the test looks for it. The lint must
 * work on a machine with no network.
 */
const offlineGuard = `
import net from 'node:net';
const refuse = (what) => { process.stderr.write('NETWORK ATTEMPT: ' + what + '\\n'); throw new Error('no network in this test'); };
net.Socket.prototype.connect = function (...args) { refuse(JSON.stringify(args[0])); };
globalThis.fetch = async (input) => refuse('fetch ' + String(input));
`;

async function redoclyLint(folder: string, file: string): Promise<{ report: LintReport | null; stderr: string }> {
  const args = ['--import', path.join(folder, 'offline-guard.mjs'), redoclyCli, 'lint', file, '--config', 'redocly.yaml', '--format', 'json', '--max-problems', '10000'];
  // Telemetry and the update notice are off by the switches Redocly documents, and the guard proves it.
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NODE_OPTIONS: '' };
  const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: folder, env, maxBuffer: 64 * 1024 * 1024 }).catch(
    // It exits 1 when the document has errors: the report is still on stdout.
    (error: { stdout?: string; stderr?: string }) => ({ stdout: error.stdout ?? '', stderr: error.stderr ?? '' }),
  );
  let report: LintReport | null = null;
  try {
    report = JSON.parse(stdout) as LintReport;
  } catch {
    // No report: the test shows stderr.
  }
  return { report, stderr };
}

const table = Object.entries(routes) as [string, RouteDef][];

/** What the document should say of a schema, computed here from zod itself. */
const schemaOf = (schema: z.ZodType) => {
  const { $schema: _dialect, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' });
  return rest;
};
const keysOf = (schema: z.ZodType | undefined) => Object.keys(schemaOf(schema ?? z.object({})).properties ?? {}).sort();

describe('GET /api/openapi.json', () => {
  let server: TestServer;
  let document: Document;
  let response: Response;
  let lintFolder: string;
  beforeAll(async () => {
    server = await startTestServer();
    response = await server.api('/api/openapi.json');
    document = (await response.json()) as Document;
    lintFolder = await mkdtemp(path.join(tmpdir(), 'openapi-lint-'));
    await writeFile(path.join(lintFolder, 'offline-guard.mjs'), offlineGuard);
    // Redocly's recommended rules, as `redocly lint` applies them when given no configuration.
    await writeFile(path.join(lintFolder, 'redocly.yaml'), 'extends:\n  - recommended\ntelemetry: off\n');
  });
  afterAll(async () => {
    await server.close();
    await rm(lintFolder, { recursive: true, force: true });
  });

  it('answers anyone, as JSON a cache may keep', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    expect(response.headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const result = await new Validator().validate({ ...document });
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe('3.1.0');
  });

  it("passes Redocly's recommended rules with no error and no warning, offline", async () => {
    await writeFile(path.join(lintFolder, 'openapi.json'), JSON.stringify(document));
    const { report, stderr } = await redoclyLint(lintFolder, 'openapi.json');
    expect(report, stderr).not.toBeNull();
    expect(report?.problems.map((problem) => `${problem.severity} ${problem.ruleId} ${problem.location[0]?.pointer}: ${problem.message}`)).toEqual([]);
    expect(report?.totals).toMatchObject({ errors: 0, warnings: 0 });
    expect(stderr).not.toContain('NETWORK ATTEMPT');
  });

  it('runs the lint behind a guard that does catch a connection attempt', async () => {
    const probe = path.join(lintFolder, 'probe.mjs');
    await writeFile(probe, "await fetch('http://127.0.0.1:9/').catch(() => {});");
    const { stderr } = await promisify(execFile)(process.execPath, ['--import', path.join(lintFolder, 'offline-guard.mjs'), probe], { env: { ...process.env, NODE_OPTIONS: '' } });
    expect(stderr).toContain('NETWORK ATTEMPT: fetch http://127.0.0.1:9/');
  });

  it('names its licence and its server, a relative one that is the server that served it', () => {
    expect(document.info.license).toEqual({ name: expect.stringMatching(/^Proprietary/), url: `${server.services.config.publicUrl}/` });
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
  });

  it('derives the refusals of a route from its line of the table', () => {
    const statuses = (name: RouteName) => {
      const route = routes[name] as RouteDef;
      return Object.keys(document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()]?.responses ?? {}).sort();
    };
    // Public, no input: only what no line can say (a conflict, a rate limit) and the server's failures.
    expect(statuses('health')).toEqual(['200', '4XX', 'default']);
    // A public POST: its body may be refused or too large.
    expect(statuses('contact')).toEqual(['200', '400', '413', '4XX', 'default']);
    // A reset link's token in the path is checked with a 200 `{ valid: false }`, never a 404.
    expect(statuses('validateResetToken')).toEqual(['200', '400', '4XX', 'default']);
    // Signed in, open before the second step is set up: no 403 from the access rule.
    expect(statuses('profile')).toEqual(['200', '401', '4XX', 'default']);
    // Its `onBehalfOf` query is checked: a 400 for a value that is no id.
    expect(statuses('investorDocuments')).toEqual(['200', '400', '401', '403', '4XX', 'default']);
    // A document by id, with byte ranges.
    expect(statuses('download')).toEqual(['200', '206', '400', '401', '403', '404', '416', '4XX', 'default']);
    // An administrator's upload of a file by id.
    expect(statuses('replaceDocument')).toEqual(['200', '400', '401', '403', '404', '413', '415', '4XX', 'default']);
  });

  it('holds exactly the routes of the table, each with its method and path', () => {
    const described = Object.entries(document.paths).flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    const expected = table.map(([, route]) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`);
    expect(described.sort()).toEqual(expected.sort());
  });

  it.each(table)('describes %s with its summary, parameters, request and answer schemas and access', (name, route) => {
    const operation = document.paths[route.path.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];
    expect(operation?.operationId).toBe(name);
    expect(operation?.summary).toBe(route.summary);
    const parameters = (where: string) => operation?.parameters.filter((p) => p.in === where).map((p) => p.name).sort();
    expect(parameters('path')).toEqual(keysOf(route.params));
    // A download's `?token=` is its security scheme, not a parameter besides.
    expect(parameters('query')).toEqual(keysOf(route.query).filter((key) => !(route.tokenInQuery && key === 'token')));
    expect(operation?.requestBody?.content['application/json']?.schema).toEqual(route.body ? schemaOf(route.body) : undefined);
    if (route.multipart) expect(operation?.requestBody?.content['multipart/form-data']).toBeDefined();
    const ok = operation?.responses['200']?.content;
    if (route.answer) expect(ok?.['application/json']?.schema).toEqual(schemaOf(route.answer));
    else expect(Object.keys(ok ?? {})).toEqual(route.file?.types);
    if (route.file?.ranges) expect(Object.keys(operation?.responses['206']?.content ?? {})).toEqual(route.file.types);
    // Every refusal and failure is a component whose body is `{ "error": "…" }`.
    for (const [status, answer] of Object.entries(operation?.responses ?? {})) {
      if (status === '200' || status === '206') continue;
      const component = document.components.responses[answer.$ref?.replace('#/components/responses/', '') ?? ''];
      expect(component?.content['application/json']?.schema, status).toEqual({ $ref: '#/components/schemas/Error' });
    }
    expect(operation?.responses['401'] !== undefined).toBe(route.access !== 'public');
    expect(operation?.security).toEqual(route.access === 'public' ? [] : route.tokenInQuery ? [{ session: [] }, { token: [] }] : [{ session: [] }]);
  });

  it("describes the downloads' link form and the types a document is sent as", () => {
    // A client generated from the description must know `?token=` opens a download, with no header.
    expect(document.components.securitySchemes).toMatchObject({ token: { type: 'apiKey', in: 'query', name: 'token' } });
    for (const path of ['/api/investor/download/{id}', '/api/investor/download-version/{versionId}']) {
      expect(document.paths[path]?.get?.security, path).toEqual([{ session: [] }, { token: [] }]);
      const types = Object.keys(document.paths[path]?.get?.responses['200']?.content ?? {});
      expect(types, path).toEqual(expect.arrayContaining(['application/pdf', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'application/vnd.ms-excel']));
      expect(types, path).not.toContain('application/octet-stream');
    }
  });

  it('describes the error body once, as the contract says it', () => {
    expect(document.components.schemas.Error).toEqual(schemaOf(errorAnswer));
    expect(document.components.schemas.Error).toEqual({ type: 'object', properties: { error: { type: 'string' } }, required: ['error'] });
  });
});
