import fc from 'fast-check';
import { z } from 'zod';

// Neither maintained generator fits zod 4 with fast-check 4 (checked 26 Nov 2026): zod-fast-check
// 0.10 reads zod 3's internals and asks for fast-check < 4, and @traversable/zod 0.0.57 has no
// generator. So values are generated from the schema's JSON Schema (zod 4's own
// `z.toJSONSchema`, input side), which covers everything the contract's request schemas say
// except refinements; those are met often enough by hints from the field's name.

/** The part of JSON Schema 2020-12 that z.toJSONSchema writes for the contract's requests. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: unknown;
}

/** The input side of a request schema as JSON Schema; what JSON Schema cannot say becomes `{}` (anything). */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
}

// Arrays and strings are kept short: the point is the shape and the edges, and a request of
// the contract's longest lists (10,000 rows) is the bench's business, not the fuzzer's.
const longestArray = 4;
const longestString = 40;

/** Ids of rows that exist in the seeded database are the interesting ones; a few beyond do not. */
const rowId = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 2_147_483_647 }));

/** Addresses of the seeded users (the interesting ones), plain new ones, and RFC 5322's odd corners. */
const email = fc.oneof(
  fc.constantFrom('investor@example.com', 'investor2@example.com', 'margaret.chen@example.com', 'admin@example.com'),
  fc.stringMatching(/^[a-z][a-z0-9.]{0,12}@example\.com$/),
  fc.emailAddress(),
);

function stringArbitrary(schema: JsonSchema, key: string): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = schema.maxLength ?? Math.max(min, longestString);
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    // Only the schema's own bounds: a pattern of 64 hex digits must not meet the default of 40.
    return fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? Infinity));
  }
  if (schema.format === 'date') {
    return fc
      .date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  }
  const text = fc.string({ minLength: min, maxLength: Math.min(max, Math.max(min, longestString)), unit: 'grapheme' });
  // The longest text the contract takes, and one past it: the edges of the limit.
  const edges = max <= 5000 ? [fc.string({ minLength: max, maxLength: max }), fc.constant('x'.repeat(max + 1))] : [];
  if (/email/i.test(key)) return fc.oneof(email.filter((e) => e.length <= max), text, ...edges);
  if (/^(year)$/i.test(key)) return fc.oneof(fc.integer({ min: 2010, max: 2030 }).map(String), text);
  if (/(^id$|Id$|^page$|^limit$)/.test(key)) return fc.oneof(rowId.map(String), text);
  return fc.oneof({ weight: 4, arbitrary: text }, ...edges.map((arbitrary) => ({ weight: 1, arbitrary })));
}

function numberArbitrary(schema: JsonSchema, key: string, integer: boolean): fc.Arbitrary<number> {
  if (/(^id$|Id$|^line$)/.test(key)) return rowId;
  if (/^(page|limit)$/.test(key)) return fc.integer({ min: 0, max: 120 });
  if (/^year$/.test(key)) return fc.integer({ min: 2010, max: 2030 });
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  if (integer) return fc.integer({ min: Math.max(min ?? -1_000_000, Number.MIN_SAFE_INTEGER), max: Math.min(max ?? 1_000_000, Number.MAX_SAFE_INTEGER) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

/**
 * Values of the shape a JSON Schema describes. `key` is the property the value goes in, for
 * hints: e-mail addresses for `email`, small row ids for `id`/`userId`, years for `year`.
 */
export function arbitraryOf(schema: JsonSchema, key = ''): fc.Arbitrary<unknown> {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return fc.oneof(...variants.map((variant) => arbitraryOf(variant, key)));
  if (schema.allOf?.[0]) return arbitraryOf(schema.allOf[0], key);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.type)) return fc.oneof(...schema.type.map((type) => arbitraryOf({ ...schema, type }, key)));
  switch (schema.type) {
    case 'string':
      return stringArbitrary(schema, key);
    case 'number':
      return numberArbitrary(schema, key, false);
    case 'integer':
      return numberArbitrary(schema, key, true);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(arbitraryOf(schema.items ?? {}, key), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? longestArray, longestArray)),
      });
    case 'object': {
      const properties = schema.properties ?? {};
      const shape = Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, arbitraryOf(property, name)]));
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((name) => name in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

// ---- Hostile values ----------------------------------------------------------------------------

/** Raw JSON text put in place of a string value of this form when the body is written (JSON.stringify cannot write these). */
const rawStart = '\uE000raw:';
const rawEnd = '\uE001';
export const raw = (jsonText: string) => `${rawStart}${jsonText}${rawEnd}`;
const rawInJson = /"\uE000raw:(.*?)\uE001"/g;
const rawAlone = /^\uE000raw:([\s\S]*)\uE001$/;

/** JSON text of a body, with the raw markers written as the text they carry. */
export function jsonText(body: unknown): string {
  return JSON.stringify(body).replace(rawInJson, (_match, text: string) => JSON.parse(`"${text}"`) as string);
}

/** A value as query-string or form text: raw markers give their text, objects their JSON. */
export function formText(value: unknown): string {
  if (typeof value === 'string') return rawAlone.exec(value)?.[1] ?? value;
  if (value === undefined) return '';
  return jsonText(value);
}

function nested(depth: number, kind: 'array' | 'object'): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = kind === 'array' ? [value] : { a: value };
  return value;
}

/** Text chosen to break parsers, SQL, file systems, headers and terminals. */
export const hostileStrings: readonly string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\r\nSet-Cookie: x=1',
  "' OR '1'='1",
  "1; DROP TABLE users; --",
  '%',
  '_',
  '\\',
  '%00',
  '../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '<script>alert(1)</script>',
  '=HYPERLINK("http://x")',
  '\u202Efdp.exe',
  'e\u0301',
  '\u00e9',
  '\uD800',
  '\uDFFF\uD800',
  '\uFEFF',
  '\u200B\u200D',
  '𝕏'.repeat(10),
  '👨‍👩‍👧‍👦',
  'ﷺ',
  'NaN',
  'Infinity',
  '-0',
  '1e3',
  '0x10',
  ' 7 ',
  '9007199254740993',
  // Just past PostgreSQL's integer, and 2^53, as a path or a query carries them.
  '2147483648',
  '9007199254740992',
  '-1',
  'null',
  'undefined',
  'true',
  '[]',
  '{}',
  '__proto__',
  'constructor',
];

const hostileNumbers: readonly number[] = [0, -0, -1, 1.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), Number.MAX_VALUE, Number.MIN_VALUE, 1e-7];

/** Any value a hostile client may put where the contract expects something else. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 2, arbitrary: fc.constantFrom(...hostileNumbers) },
  // Numbers JSON.parse reads as Infinity, -Infinity, a float that loses digits, and -0.
  { weight: 1, arbitrary: fc.constantFrom('1e400', '-1e400', '123456789012345678901234567890', '-0.0').map(raw) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 5_000, maxLength: 20_000 }) },
  { weight: 1, arbitrary: fc.constantFrom(nested(2_000, 'array'), nested(2_000, 'object')) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], { length: 1 }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** Keys that reach Object.prototype when a body is merged or assigned carelessly. */
export const prototypeKeys = ['__proto__', 'constructor', 'prototype', 'hasOwnProperty', 'toString', 'valueOf'] as const;
export const pollutionMarker = 'everestFuzzPolluted';

/** A body with prototype keys carrying objects that would mark Object.prototype if merged. */
function withPrototypeKeys(base: unknown): fc.Arbitrary<unknown> {
  return fc.subarray([...prototypeKeys], { minLength: 1 }).map((keys) => {
    // JSON.parse makes `__proto__` an own property, as the server's body parser will.
    const text = jsonText(base && typeof base === 'object' && !Array.isArray(base) ? base : {});
    const extra = keys.map((key) => `${JSON.stringify(key)}:{"${pollutionMarker}":true,"prototype":{"${pollutionMarker}":true}}`).join(',');
    const joined = text === '{}' ? `{${extra}}` : `${text.slice(0, -1)},${extra}}`;
    return raw(joined);
  });
}

/**
 * Hostile versions of a valid-shaped object: one or more fields swapped for hostile values, a
 * required field dropped, unknown fields added, prototype keys, or no object at all.
 */
export function hostileOf(valid: fc.Arbitrary<unknown>, schema: JsonSchema): fc.Arbitrary<unknown> {
  const keys = Object.keys(schema.properties ?? {});
  const swapped = keys.length
    ? fc.tuple(valid, fc.subarray(keys, { minLength: 1 }), fc.array(hostileValue, { minLength: keys.length, maxLength: keys.length })).map(
        ([base, chosen, values]) => {
          const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
          chosen.forEach((key, i) => {
            out[key] = values[i];
          });
          return out;
        },
      )
    : fc.dictionary(fc.constantFrom('id', 'x', 'title'), hostileValue, { maxKeys: 3 });
  const dropped = keys.length
    ? fc.tuple(valid, fc.constantFrom(...keys)).map(([base, key]) => {
        const out: Record<string, unknown> = { ...(base as Record<string, unknown>) };
        delete out[key];
        return out;
      })
    : valid;
  const extra = fc.tuple(valid, fc.dictionary(fc.string({ maxLength: 10 }), hostileValue, { minKeys: 1, maxKeys: 3 })).map(([base, more]) => ({
    ...more,
    ...(base as Record<string, unknown>),
  }));
  return fc.oneof(
    { weight: 5, arbitrary: swapped },
    { weight: 1, arbitrary: dropped },
    { weight: 1, arbitrary: extra },
    { weight: 2, arbitrary: valid.chain(withPrototypeKeys) },
    { weight: 1, arbitrary: hostileValue },
  );
}
