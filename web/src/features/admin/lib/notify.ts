import { ApiError } from '@everest/core/client';
import { showToast, type ToastOptions } from '../../../lib/toast';

/**
 * A failed action: the spec's catalogue text as the title, the server's sentence (when it says
 * more) below it. A 401 says nothing here: the portal ends the session and says so itself.
 */
export function notifyFailure(title: string, error: unknown, fallback?: string): void {
  if (error instanceof ApiError && error.status === 401) return;
  let message = error instanceof Error ? error.message.trim() : '';
  // The server may open its sentence with the same catalogue text ('Address Not Found: …').
  if (message.startsWith(`${title}: `)) message = message.slice(title.length + 2);
  const description = message !== '' && message !== title ? message : fallback;
  showToast({ title, description, variant: 'destructive' });
}

export function notifySuccess(title: string, description?: string, options: Omit<ToastOptions, 'title' | 'description'> = {}): void {
  showToast({ title, description, ...options });
}
