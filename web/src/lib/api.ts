import { z } from 'zod';
import { createApiClient } from '@everest/core/client';
import { getStoredToken } from './session-storage';

// zod compiles validators with `new Function` when it may; our CSP forbids eval, so say so
// up front instead of letting every page log a CSP violation while zod probes.
z.config({ jitless: true });

/** The one API client of the web app: same origin, the stored session token when there is one. */
export const api = createApiClient({ getToken: getStoredToken });
