// zod compiles validators with `new Function` when it may, and probes for it as each object
// schema is built; our CSP forbids eval, so every probe logs a CSP violation. zod 4 keeps its
// configuration on globalThis.__zod_globalConfig (one object for every copy of zod), so setting
// `jitless` there before any schema is built turns the probe off without loading zod here: the
// entries (web's main.tsx and workers, the desktop renderer's main.tsx) import this module first.
// Rolldown may put a chunk's modules in another order than their imports, so a `z.config` call
// beside the schemas would come too late.
const scope = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
(scope.__zod_globalConfig ??= {}).jitless = true;
