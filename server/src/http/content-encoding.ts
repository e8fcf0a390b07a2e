// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- negotiator 1.x has no types of its own; this brings ours into every program that compiles this file (the desktop app type-checks server sources)
/// <reference path="./negotiator.d.ts" />
import Negotiator from 'negotiator';

/** The encodings an answer compressed in advance is kept in, best first (koa-compress's own order). */
export const storedEncodings = ['br', 'gzip', 'identity'] as const;
export type StoredEncoding = (typeof storedEncodings)[number];

/** Distinct Accept-Encoding values remembered; browsers send a handful, a stranger may send any. */
const rememberedValues = 100;
const chosen = new Map<string, StoredEncoding>();

/**
 * The encoding to answer a precompressed answer in, for a request's Accept-Encoding: the client's
 * choice by q-value, ties going to brotli, then gzip, as koa-compress decides for the answers it
 * compresses itself. Decided once per distinct header value, not per request.
 */
export function encodingFor(acceptEncoding: string | undefined): StoredEncoding {
  const value = acceptEncoding ?? '';
  let encoding = chosen.get(value);
  if (encoding === undefined) {
    // No header: identity, and `*`: gzip (koa-compress's defaults). Nothing acceptable
    // (`identity;q=0` alone) is answered uncompressed rather than refused, as koa-compress does.
    const negotiated = value === '' ? 'identity' : value === '*' ? 'gzip' : new Negotiator({ headers: { 'accept-encoding': value } }).encoding(storedEncodings, { preferred: storedEncodings });
    encoding = (negotiated as StoredEncoding | undefined) ?? 'identity';
    if (chosen.size < rememberedValues) chosen.set(value, encoding);
  }
  return encoding;
}
