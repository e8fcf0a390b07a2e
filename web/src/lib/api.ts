import './zod-without-eval';
import { createApiClient } from '@everest/core/client';
import { getStoredToken } from './session-storage';

/** The one API client of the web app: same origin, the stored session token when there is one. */
export const api = createApiClient({ getToken: getStoredToken });
