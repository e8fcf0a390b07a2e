import { Suspense, lazy, useSyncExternalStore } from 'react';
import { isToasterWanted, subscribeToasterWanted } from '../../lib/toast';

const loadToaster = () => import('./app-toaster');
const AppToaster = lazy(loadToaster);

/** Fetches the toaster's chunk ahead of need, e.g. when a form that toasts comes into view. */
export function preloadToaster(): void {
  void loadToaster();
}

/**
 * Mounts the toaster once the first toast is asked for. Until then no page loads Fluent's toast
 * code, which is most of the cost of a toaster (motion, focus management, portal).
 */
export function ToastHost() {
  const wanted = useSyncExternalStore(subscribeToasterWanted, isToasterWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <AppToaster />
    </Suspense>
  );
}
