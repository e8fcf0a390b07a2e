import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * Fixed-window counters (for example `login:ip:203.0.113.7`), kept in PostgreSQL so that every
 * server instance sees the same count.
 */
export const RateLimitCounter = defineEntity({
  name: 'RateLimitCounter',
  tableName: 'rate_limit_counters',
  properties: {
    key: p.string().length(300).primary(),
    windowStart: p.datetime().primary(),
    count: p.integer().default(0),
  },
  primaryKeys: ['key', 'windowStart'],
});
export type IRateLimitCounter = InferEntity<typeof RateLimitCounter>;
