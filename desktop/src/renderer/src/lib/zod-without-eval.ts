import { z } from 'zod';

// Imported first by main.tsx, before any module that builds a schema: zod 4 compiles object
// parsers with `new Function` unless told not to, and decides so when each schema is built. The
// renderer's CSP allows no eval, so the probe alone logged a CSP error at every start.
z.config({ jitless: true });
