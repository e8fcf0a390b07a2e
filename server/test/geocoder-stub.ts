import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the stub does with one search: answer JSON with a status, or wait before answering. */
export interface StubAnswer {
  status?: number;
  /** Answered as JSON (a Nominatim result list: `[{ lat, lon }]`, or `[]` for nothing found). */
  body: unknown;
  /** Wait this long before answering, to play a slow service. */
  delayMs?: number;
}

export interface StubSearch {
  q: string | null;
  format: string | null;
  limit: string | null;
  userAgent: string | undefined;
  /** When the search arrived (ms since the epoch). */
  at: number;
}

export interface GeocoderStub {
  /** The search endpoint, for GEOCODER_URL: `http://127.0.0.1:PORT/search`. */
  url: string;
  /** Every search received, in order. */
  searches: StubSearch[];
  close: () => Promise<void>;
}

/** Any address containing "Not Found" finds nothing; any other lands on Everest's Pasadena office. */
export function cannedAnswer(q: string): StubAnswer {
  if (q.includes('Not Found')) return { body: [] };
  return { body: [{ lat: '34.1477849', lon: '-118.1445163', display_name: q }] };
}

/**
 * A Nominatim-compatible geocoder on an ephemeral port of 127.0.0.1, answering each search
 * (`GET /search?q=…&format=json&limit=1`) as `answer` says. For server tests, and through
 * stub-geocoder.ts for the end-to-end tests.
 */
export async function startGeocoderStub(
  answer: (q: string) => StubAnswer = cannedAnswer,
  port = 0,
): Promise<GeocoderStub> {
  const searches: StubSearch[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://stub');
    const q = url.searchParams.get('q');
    searches.push({
      q,
      format: url.searchParams.get('format'),
      limit: url.searchParams.get('limit'),
      userAgent: req.headers['user-agent'],
      at: Date.now(),
    });
    const { status = 200, body, delayMs = 0 } = answer(q ?? '');
    const timer = setTimeout(() => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    }, delayMs);
    // A client that gave up (a timeout) closes the connection: stop waiting for it.
    res.on('close', () => clearTimeout(timer));
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/search`,
    searches,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
