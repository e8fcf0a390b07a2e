import type { PublicProperty } from '@everest/core/contract';
import { pageData } from './page-data';

/** The answer to GET /api/properties as it arrived, for the worker to check. */
export interface PropertyListCheck {
  status: number;
  statusText: string;
  text: string;
}

export type PropertyListReply =
  | { ok: true; properties: PublicProperty[] }
  | { ok: false; status: number; message: string };

export class PropertyListError extends Error {
  override readonly name = 'PropertyListError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * GET /api/properties, the first data of the property list, the map and the home page.
 *
 * The answer is checked against the contract's schema as the API client checks every answer,
 * but in a worker: zod and the contract's schemas take 30 kB gzip and, as they load, one main
 * thread task of about 90 ms on a throttled phone (measured), which would block the visitor's
 * first taps on the pages they land on. The request itself stays on the page, where it picks
 * up the answer the page's HTML preloads (web/build/page-links.ts): same URL, credentials
 * included, no token (the API client sends none to public calls either).
 */
export async function fetchPublicProperties(): Promise<PublicProperty[]> {
  const response = await fetch('/api/properties', { headers: { Accept: 'application/json' }, credentials: 'include' });
  const answer = { status: response.status, statusText: response.statusText, text: await response.text() };
  const reply = await checker()(answer);
  if (!reply.ok) throw new PropertyListError(reply.status, reply.message);
  return reply.properties;
}

type Check = (answer: PropertyListCheck) => Promise<PropertyListReply>;
const uncheckable: PropertyListReply = { ok: false, status: 0, message: 'The property list could not be checked.' };
let started: Check | undefined;

/** One worker for the visit, or a new one after a failure (Try again). */
function checker(): Check {
  if (started) return started;
  const worker = new Worker(new URL('./property-list-check.worker.ts', import.meta.url), { type: 'module' });
  // Replies come back in the order of the requests.
  const waiting: ((reply: PropertyListReply) => void)[] = [];
  worker.addEventListener('message', (event: MessageEvent<PropertyListReply>) => waiting.shift()?.(event.data));
  // A worker that cannot start (its script failed to load) answers every request with a failure,
  // those waiting and any sent later, so that the page offers to try again instead of loading for
  // ever. Try again then starts a new worker.
  let failed = false;
  worker.addEventListener('error', () => {
    failed = true;
    started = undefined;
    worker.terminate();
    for (const resolve of waiting.splice(0)) resolve(uncheckable);
  });
  const check: Check = (answer) =>
    failed
      ? Promise.resolve(uncheckable)
      : new Promise<PropertyListReply>((resolve) => {
          waiting.push(resolve);
          worker.postMessage(answer);
        });
  started = check;
  return check;
}

// Started as soon as a page that reads the list loads its code, not when it first renders: the
// worker's own loading (zod and the schemas) then overlaps the page's start-up, and the list
// shows as soon as its answer arrives. Not when the page's HTML carries the list (the server
// rendered it): then nothing is fetched. (Unit tests run without workers.)
if (typeof Worker !== 'undefined' && !pageData().properties) checker();
