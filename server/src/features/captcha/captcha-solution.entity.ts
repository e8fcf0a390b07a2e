import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** Captcha solutions already accepted, so that each one works once (replay protection). */
export const CaptchaSolution = defineEntity({
  name: 'CaptchaSolution',
  tableName: 'captcha_solutions',
  properties: {
    signature: p.string().length(128).primary(),
    expiresAt: p.datetime().index(),
  },
});
export type ICaptchaSolution = InferEntity<typeof CaptchaSolution>;
