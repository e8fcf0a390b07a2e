import { sessionQueryKey } from '../../../lib/session-query-key';

/** Every query of the portal sits under this key, so that signing out drops them all at once. */
export const portalQueryKey = sessionQueryKey;
