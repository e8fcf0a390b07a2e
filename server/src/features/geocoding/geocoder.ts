import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { GeocodeAnswer } from '@everest/core/contract';
import { coordinateDecimals, portalMessages } from '@everest/core/domain';
import { HttpError } from '../../http/errors';

export interface GeocoderOptions {
  /** A Nominatim-compatible search endpoint (GEOCODER_URL). */
  url: string;
  /** Says who asks: the public Nominatim service refuses anonymous clients. */
  userAgent: string;
  /** How long one search may take, waiting in line excluded. */
  timeoutMs?: number;
  /** The least time between two searches' starts: OpenStreetMap's policy asks for one a second. */
  minIntervalMs?: number;
  /** A search that would wait in line longer than this is refused at once (503) instead. */
  maxWaitMs?: number;
}

const nominatimResults = z.array(
  z.object({ lat: z.union([z.string(), z.number()]), lon: z.union([z.string(), z.number()]) }).loose(),
);

/** Nobody answers one address with a megabyte: more is a service gone wrong. */
const maxAnswerChars = 1_000_000;

const failed = (why: string) => `${portalMessages.geocodingFailed}: ${why} Please try again later, or enter the coordinates yourself.`;

/**
 * Address to coordinates through a Nominatim-compatible service, one search at a time in a
 * simple in-process line: each search starts at least `minIntervalMs` after the one before, so
 * this instance never asks the public service more than once a second (several instances each
 * keep their own line; the panel's searches are a person's clicks, far below that).
 */
export class Geocoder {
  private readonly timeoutMs: number;
  private readonly minIntervalMs: number;
  private readonly maxWaitMs: number;
  /** When the next search may start (ms since the epoch). */
  private nextStart = 0;
  /** When the last search was sent (ms since the epoch). */
  private lastDeparture = -Infinity;

  constructor(private readonly options: GeocoderOptions) {
    this.timeoutMs = options.timeoutMs ?? 5000;
    this.minIntervalMs = options.minIntervalMs ?? 1000;
    this.maxWaitMs = options.maxWaitMs ?? 10_000;
  }

  /** The first result, to 6 decimals; 404 when there is none, 502/504 when the service fails. */
  async search(address: string): Promise<GeocodeAnswer> {
    await this.waitForTurn();
    const url = new URL(this.options.url);
    url.searchParams.set('q', address);
    url.searchParams.set('format', 'json');
    url.searchParams.set('limit', '1');

    let text: string;
    try {
      const signal = AbortSignal.timeout(this.timeoutMs);
      const res = await fetch(url, {
        headers: { 'User-Agent': this.options.userAgent, Accept: 'application/json', 'Accept-Language': 'en' },
        signal,
      });
      text = await res.text();
      if (!res.ok) throw new HttpError(502, failed(`the geocoding service answered ${res.status}.`));
    } catch (error) {
      if (error instanceof HttpError) throw error;
      if (error instanceof Error && error.name === 'TimeoutError') {
        throw new HttpError(504, failed(`the geocoding service did not answer within ${this.timeoutMs / 1000} seconds.`));
      }
      throw new HttpError(502, failed('the geocoding service could not be reached.'));
    }
    return firstResult(text);
  }

  private async waitForTurn(): Promise<void> {
    const now = Date.now();
    const start = Math.max(now, this.nextStart);
    if (start - now > this.maxWaitMs) {
      throw new HttpError(503, failed('too many addresses are being looked up at once.'), {
        'Retry-After': String(Math.ceil((start - now) / 1000)),
      });
    }
    this.nextStart = start + this.minIntervalMs;
    if (start > now) await sleep(start - now);
    // The slot was planned from the one before's planned start; that search may have left later
    // (a busy event loop), so the spacing is kept from when it really left.
    for (let wait = this.lastDeparture + this.minIntervalMs - Date.now(); wait > 0; wait = this.lastDeparture + this.minIntervalMs - Date.now()) {
      await sleep(wait);
    }
    this.lastDeparture = Date.now();
  }
}

function firstResult(text: string): GeocodeAnswer {
  const parsed = text.length <= maxAnswerChars ? nominatimResults.safeParse(safeJson(text)) : null;
  if (!parsed?.success) throw new HttpError(502, failed('the geocoding service gave an answer that could not be read.'));
  const first = parsed.data[0];
  if (!first) {
    throw new HttpError(404, `${portalMessages.addressNotFound}: no place matches this address. Please check the address, city and state.`);
  }
  const latitude = Number(first.lat);
  const longitude = Number(first.lon);
  if (!Number.isFinite(latitude) || !Number.isFinite(longitude) || Math.abs(latitude) > 90 || Math.abs(longitude) > 180) {
    throw new HttpError(502, failed('the geocoding service gave coordinates that are not on Earth.'));
  }
  return { latitude: latitude.toFixed(coordinateDecimals), longitude: longitude.toFixed(coordinateDecimals) };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
