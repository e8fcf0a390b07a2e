import { useSyncExternalStore } from 'react';
import { isToasterWanted, subscribeToasterWanted } from '../../lib/toast';
import { OnDemand } from './on-demand';

const loadToaster = () => import('./app-toaster').then((module) => module.default);

/** Fetches the toaster's chunk ahead of need, e.g. when a form that toasts comes into view. */
export function preloadToaster(): void {
  void loadToaster();
}

/**
 * Mounts the toaster once the first toast is asked for (toasts asked for meanwhile wait in
 * lib/toast). Until then no page loads Fluent's toast code, which is most of the cost of a
 * toaster (motion, focus management, portal).
 */
export function ToastHost() {
  const wanted = useSyncExternalStore(subscribeToasterWanted, isToasterWanted, () => false);
  return wanted ? <OnDemand load={loadToaster} props={{}} /> : null;
}
