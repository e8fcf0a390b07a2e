import { z } from 'zod';

export const healthAnswer = z.object({ status: z.literal('ok'), database: z.literal('ok') });
export type HealthAnswer = z.infer<typeof healthAnswer>;
