import { createApiClient } from '@everest/core/client';

/**
 * The renderer's own calls (the CSV preview's reads). Same origin as the admin panel's: the app
 * scheme, where the main process forwards `/api` to the server with the session's token, which
 * the renderer never holds.
 */
export const api = createApiClient();
