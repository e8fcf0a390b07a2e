import { ApiError } from '@everest/core/client';
import { asSentence, failureTitle } from '@everest/core/domain';
import { showToast, type ToastOptions } from '../toast';

/**
 * A failed action: the spec's catalogue text as the title, the server's sentence (when it says
 * more) below it. A 401 says nothing here: the portal ends the session and says so itself.
 */
export function notifyFailure(catalogueTitle: string, error: unknown, fallback?: string): void {
  if (error instanceof ApiError && error.status === 401) return;
  let message = error instanceof Error ? error.message.trim() : '';
  // The server may open its sentence with the same catalogue text ('Address Not Found: …'):
  // what follows is shown alone, so as a sentence ('Geocoding Failed: the service …' → 'The service …').
  if (message.startsWith(`${catalogueTitle}: `)) message = asSentence(message.slice(catalogueTitle.length + 2));
  const reason = message !== '' && message !== catalogueTitle ? message : undefined;
  const title = failureTitle(catalogueTitle, error instanceof ApiError ? error.status : undefined, reason !== undefined);
  showToast({ title, description: reason ?? fallback, variant: 'destructive' });
}

export function notifySuccess(title: string, description?: string, options: Omit<ToastOptions, 'title' | 'description'> = {}): void {
  showToast({ title, description, ...options });
}
