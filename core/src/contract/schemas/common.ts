import { z } from 'zod';

/** The least every write answers: a sentence saying what happened. */
export const messageAnswer = z.object({ message: z.string() });
export type MessageAnswer = z.infer<typeof messageAnswer>;

/** Every error answer (4xx, 5xx): `{ "error": "human sentence" }`. */
export const errorAnswer = z.object({ error: z.string() });
export type ErrorAnswer = z.infer<typeof errorAnswer>;

/** The body of a call that needs nothing but the session: empty (or absent). */
export const emptyBody = z.object({}).strict();
