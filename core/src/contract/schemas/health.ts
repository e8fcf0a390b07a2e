import { z } from 'zod';

/** Liveness: the process answers. It asks nothing of the database, so an outage never gets a live server restarted. */
export const healthAnswer = z.object({ status: z.literal('ok') });
export type HealthAnswer = z.infer<typeof healthAnswer>;

/** Readiness: the database answers and every migration is applied (503 with a sentence otherwise, and while shutting down). */
export const readyAnswer = z.object({ status: z.literal('ready'), database: z.literal('ok'), migrations: z.literal('applied') });
export type ReadyAnswer = z.infer<typeof readyAnswer>;
