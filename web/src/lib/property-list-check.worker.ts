import './zod-without-eval';
import { errorMessageOf } from '@everest/core/client';
import { publicPropertyList } from '@everest/core/contract';
import type { PropertyListCheck, PropertyListReply } from './public-properties';

// The worker's global scope, typed by hand: the web app's lib is DOM, not WebWorker.
interface WorkerScope {
  addEventListener(type: 'message', listener: (event: MessageEvent<PropertyListCheck>) => void): void;
  postMessage(message: PropertyListReply): void;
}
const scope = self as unknown as WorkerScope;

/** What the API client does with an answer: the spec's error rule, then the contract's schema. */
function check({ status, statusText, text }: PropertyListCheck): PropertyListReply {
  if (status < 200 || status > 299) return { ok: false, status, message: errorMessageOf(status, statusText, text) };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, status, message: 'The server sent an answer that could not be read.' };
  }
  const parsed = publicPropertyList.safeParse(json);
  if (!parsed.success) {
    return { ok: false, status, message: "The server's answer to /api/properties does not match the contract." };
  }
  return { ok: true, properties: parsed.data };
}

scope.addEventListener('message', (event) => scope.postMessage(check(event.data)));
