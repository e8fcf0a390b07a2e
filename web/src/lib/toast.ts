// Toasts for the whole app. The toaster itself (Fluent's, with the spec's settings: see
// components/ui/app-toaster) is a lazy chunk mounted by the first toast, so that no page pays
// for it up front: this module, which imports nothing, is the whole cost of toasts in the entry.
export const toasterId = 'everest-toaster';

/** 'destructive' is for errors (red, announced assertively); 'default' for everything else. */
export type ToastVariant = 'default' | 'destructive';

export interface ToastOptions {
  title: string;
  description?: string;
  variant?: ToastVariant;
  /** How long the toast stays; 5000 ms unless a screen says otherwise (User Created: 10 s). */
  durationMs?: number;
  /** One button in the toast, e.g. 'Copy password' on 'User Created'. */
  action?: ToastAction;
}

export interface ToastAction {
  label: string;
  /** The button's label once `run` has succeeded ('Copied'), so the user sees it worked. */
  doneLabel?: string;
  run: () => void | Promise<void>;
}

export interface ToastRequest extends ToastOptions {
  id: string;
}

type ToastSink = (request: ToastRequest) => void;

let sink: ToastSink | null = null;
let pending: ToastRequest[] = [];
let wanted = false;
let counter = 0;
const wantedListeners = new Set<() => void>();

/**
 * Shows a toast; a newer toast replaces the one on screen (limit 1), as the spec's toaster
 * does, rather than waiting in a queue behind it. Callable from anywhere, before or after the
 * toaster has loaded: toasts asked for in the meantime are shown as soon as it is mounted.
 */
export function showToast(options: ToastOptions): void {
  counter += 1;
  const request: ToastRequest = { ...options, id: `toast-${counter}` };
  if (sink) {
    sink(request);
    return;
  }
  pending.push(request);
  if (!wanted) {
    wanted = true;
    for (const listener of wantedListeners) listener();
  }
}

/** Whether a toast has been asked for yet (the host mounts the toaster from then on). */
export function isToasterWanted(): boolean {
  return wanted;
}

export function subscribeToasterWanted(listener: () => void): () => void {
  wantedListeners.add(listener);
  return () => wantedListeners.delete(listener);
}

/**
 * Called by the mounted toaster: from now on toasts go straight to it, and those asked for
 * while it loaded are shown at once. Returns the disconnect function.
 */
export function connectToaster(next: ToastSink): () => void {
  sink = next;
  const queued = pending;
  pending = [];
  for (const request of queued) next(request);
  return () => {
    if (sink === next) sink = null;
  };
}
